package domain

import (
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/apperr"
)

// Refund statuses: pending while the gateway works, then success or failed.
const (
	RefundPending = "pending"
	RefundSuccess = "success"
	RefundFailed  = "failed"
)

// RefundLine is a refunded quantity of a line item with its amounts.
type RefundLine struct {
	LineItemID string
	Quantity   int
	Restock    bool
	Subtotal   decimal.Decimal // price × quantity less the line's share of the discounts
	Tax        decimal.Decimal // the line's share of the order's taxes
}

// Refund is money and/or items given back to the customer.
type Refund struct {
	ID             string
	Status         string
	Note           string
	NotifyCustomer bool
	Lines          []RefundLine
	Shipping       decimal.Decimal
	Amount         decimal.Decimal // money refunded (requested while pending)
	CreatedAt      time.Time
	ProcessedAt    *time.Time
}

// RefundLineRequest asks to refund a quantity of a line item.
type RefundLineRequest struct {
	LineItemID string
	Quantity   int
	Restock    bool
}

// RefundTransactionRequest asks to refund an amount of a sale or capture transaction.
type RefundTransactionRequest struct {
	ParentID string
	Amount   decimal.Decimal
}

// RefundRequest is a refund to calculate or create. Transactions nil means "refund the
// calculated amount over the order's payments" (the suggested transactions).
type RefundRequest struct {
	Lines          []RefundLineRequest
	FullShipping   bool
	ShippingAmount *decimal.Decimal
	Transactions   []RefundTransactionRequest
	Note           string
	NotifyCustomer bool
}

// SuggestedTransaction is a part of a refund assigned to a sale or capture.
type SuggestedTransaction struct {
	ParentID      string
	PaymentID     string
	Gateway       string
	Amount        decimal.Decimal
	MaxRefundable decimal.Decimal
}

// RefundCalculation is what a refund would give back, before processing.
type RefundCalculation struct {
	Lines             []RefundLine
	Subtotal          decimal.Decimal
	Tax               decimal.Decimal
	Shipping          decimal.Decimal
	ShippingMax       decimal.Decimal // shipping not refunded yet
	Total             decimal.Decimal // subtotal + tax + shipping
	MaximumRefundable decimal.Decimal // money received and not refunded
	Transactions      []SuggestedTransaction
}

// CalculateRefund prices a refund: each line's price × quantity less its share of the
// discounts, its share of the taxes, and shipping (the rest of it when full shipping is
// asked). Unknown lines are LINE_ITEM_NOT_FOUND; quantities must be positive and at most
// what is not refunded yet (INVALID_QUANTITY); shipping above what is left is
// REFUND_EXCEEDS_TOTAL. The suggested transactions spread the total (at most the
// refundable money) over the successful sales and captures, oldest first.
func (o *Order) CalculateRefund(req RefundRequest) (RefundCalculation, error) {
	c := o.Currency
	calc := RefundCalculation{Subtotal: decimal.Zero, Tax: decimal.Zero, Shipping: decimal.Zero}
	asked := map[string]int{}
	base := o.TaxableBase()
	for _, l := range req.Lines {
		li, err := o.LineItem(l.LineItemID)
		if err != nil {
			return calc, err
		}
		if l.Quantity <= 0 {
			return calc, ErrInvalidQuantity
		}
		asked[li.ID] += l.Quantity
		if left := li.Quantity - li.RefundedQuantity; asked[li.ID] > left {
			return calc, ErrInvalidQuantity.WithMessage("Line item %s has %d left to refund", li.ID, left)
		}
		gross := Round(li.Price.Mul(decimal.NewFromInt(int64(l.Quantity))), c)
		sub := gross.Sub(o.discountShare(gross))
		tax := decimal.Zero
		if li.Taxable && base.IsPositive() && o.TotalTax.IsPositive() {
			tax = Round(o.TotalTax.Mul(sub).Div(base), c)
		}
		calc.Lines = append(calc.Lines, RefundLine{LineItemID: li.ID, Quantity: l.Quantity, Restock: l.Restock, Subtotal: sub, Tax: tax})
		calc.Subtotal = calc.Subtotal.Add(sub)
		calc.Tax = calc.Tax.Add(tax)
	}
	refundedShipping := decimal.Zero
	for _, r := range o.Refunds {
		if r.Status != RefundFailed {
			refundedShipping = refundedShipping.Add(r.Shipping)
		}
	}
	calc.ShippingMax = decimal.Max(decimal.Zero, o.TotalShipping.Sub(refundedShipping))
	switch {
	case req.ShippingAmount != nil:
		if req.ShippingAmount.IsNegative() {
			return calc, ErrInvalidPrice.WithField("shipping.amount", "must not be negative")
		}
		if req.ShippingAmount.GreaterThan(calc.ShippingMax) {
			return calc, ErrRefundExceedsTotal.WithMessage("Shipping refund is higher than the %s of shipping left to refund", FormatMoney(calc.ShippingMax, c))
		}
		calc.Shipping = *req.ShippingAmount
	case req.FullShipping:
		calc.Shipping = calc.ShippingMax
	}
	calc.Total = calc.Subtotal.Add(calc.Tax).Add(calc.Shipping)
	calc.MaximumRefundable = o.Money().Refundable()
	calc.Transactions = o.spread(decimal.Min(calc.Total, calc.MaximumRefundable))
	return calc, nil
}

// refundableOf is what is left to refund of a sale or capture.
func (o *Order) refundableOf(parent *Transaction) decimal.Decimal {
	left := parent.Amount
	for _, t := range o.Transactions {
		if t.Kind == KindRefund && t.ParentID == parent.ID && t.Status != TxFailure {
			left = left.Sub(t.Amount)
		}
	}
	return decimal.Max(decimal.Zero, left)
}

func (o *Order) spread(amount decimal.Decimal) []SuggestedTransaction {
	out := []SuggestedTransaction{}
	for _, t := range o.Transactions {
		if !amount.IsPositive() {
			break
		}
		if t.Status != TxSuccess || (t.Kind != KindSale && t.Kind != KindCapture) {
			continue
		}
		left := o.refundableOf(t)
		if !left.IsPositive() {
			continue
		}
		take := decimal.Min(left, amount)
		out = append(out, SuggestedTransaction{ParentID: t.ID, PaymentID: t.PaymentID, Gateway: t.Gateway, Amount: take, MaxRefundable: left})
		amount = amount.Sub(take)
	}
	return out
}

// StartRefund records a refund: the refunded quantities are taken at once (so two
// refunds cannot give back the same units), and each money part becomes a pending
// refund transaction for the gateway. A refund without money is a success at once.
// More money than the refundable amount (or than a transaction's remainder) is
// REFUND_EXCEEDS_TOTAL; a refund of nothing is a validation error.
func (o *Order) StartRefund(id string, req RefundRequest, newID func() string, now time.Time) (*Refund, []*Transaction, error) {
	if utf8.RuneCountInString(req.Note) > 5000 {
		return nil, nil, apperr.Validation(map[string]string{"note": "must be at most 5000 characters"})
	}
	calc, err := o.CalculateRefund(req)
	if err != nil {
		return nil, nil, err
	}
	var parts []SuggestedTransaction
	if req.Transactions == nil {
		if calc.Total.GreaterThan(calc.MaximumRefundable) {
			return nil, nil, ErrRefundExceedsTotal.WithMessage("Refund of %s is higher than the %s that can be refunded",
				FormatMoney(calc.Total, o.Currency), FormatMoney(calc.MaximumRefundable, o.Currency))
		}
		parts = calc.Transactions
	} else {
		sum := decimal.Zero
		used := map[string]decimal.Decimal{}
		for i, r := range req.Transactions {
			parent, err := o.Transaction(r.ParentID)
			if err != nil || parent.Status != TxSuccess || (parent.Kind != KindSale && parent.Kind != KindCapture) {
				return nil, nil, apperr.Validation(map[string]string{transactionField(i, "parent_id"): "must be the id of a successful sale or capture of this order"})
			}
			if !r.Amount.IsPositive() {
				return nil, nil, ErrInvalidPrice.WithField(transactionField(i, "amount"), "must be positive")
			}
			used[parent.ID] = used[parent.ID].Add(r.Amount)
			if left := o.refundableOf(parent); used[parent.ID].GreaterThan(left) {
				return nil, nil, ErrRefundExceedsTotal.WithMessage("Transaction %s has %s left to refund", parent.ID, FormatMoney(left, o.Currency))
			}
			sum = sum.Add(r.Amount)
			parts = append(parts, SuggestedTransaction{ParentID: parent.ID, PaymentID: parent.PaymentID, Gateway: parent.Gateway, Amount: r.Amount})
		}
		if sum.GreaterThan(calc.MaximumRefundable) {
			return nil, nil, ErrRefundExceedsTotal.WithMessage("Refund of %s is higher than the %s that can be refunded",
				FormatMoney(sum, o.Currency), FormatMoney(calc.MaximumRefundable, o.Currency))
		}
	}
	amount := decimal.Zero
	for _, p := range parts {
		amount = amount.Add(p.Amount)
	}
	if len(calc.Lines) == 0 && !calc.Shipping.IsPositive() && !amount.IsPositive() {
		return nil, nil, apperr.Validation(map[string]string{"refund_line_items": "nothing to refund: give line items, shipping or transactions"})
	}
	r := &Refund{
		ID: id, Status: RefundPending, Note: req.Note, NotifyCustomer: req.NotifyCustomer, Lines: calc.Lines,
		Shipping: calc.Shipping, Amount: amount, CreatedAt: now,
	}
	for _, l := range calc.Lines {
		li, _ := o.LineItem(l.LineItemID)
		li.RefundedQuantity += l.Quantity
	}
	var txs []*Transaction
	for _, p := range parts {
		t := &Transaction{ID: newID(), Kind: KindRefund, Status: TxPending, Amount: p.Amount, Currency: o.Currency, Gateway: p.Gateway,
			PaymentID: p.PaymentID, ParentID: p.ParentID, RefundID: id, CreatedAt: now}
		txs = append(txs, t)
		o.Transactions = append(o.Transactions, t)
	}
	if len(txs) == 0 {
		r.Status, r.ProcessedAt = RefundSuccess, &now
	}
	o.Refunds = append(o.Refunds, r)
	o.Recalculate()
	o.Touch(now)
	return r, txs, nil
}

func transactionField(i int, name string) string {
	return "transactions[" + decimal.NewFromInt(int64(i)).String() + "]." + name
}

// FindRefund finds a refund by id.
func (o *Order) FindRefund(id string) *Refund {
	for _, r := range o.Refunds {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// FinishRefund settles a pending refund once none of its transactions is pending: a
// success when any money went back (Amount becomes what did), failed when every
// transaction failed (its quantities are given back). It reports whether the refund
// just finished; the caller then restocks (RestockRefund) and publishes.
func (o *Order) FinishRefund(id string, now time.Time) bool {
	r := o.FindRefund(id)
	if r == nil || r.Status != RefundPending {
		return false
	}
	succeeded, any := decimal.Zero, false
	for _, t := range o.Transactions {
		if t.RefundID != id || t.Kind != KindRefund {
			continue
		}
		any = true
		switch t.Status {
		case TxPending:
			return false
		case TxSuccess:
			succeeded = succeeded.Add(t.Amount)
		case TxFailure:
		}
	}
	r.ProcessedAt = &now
	if any && !succeeded.IsPositive() {
		r.Status = RefundFailed
		for _, l := range r.Lines {
			if li, err := o.LineItem(l.LineItemID); err == nil {
				li.RefundedQuantity = max(0, li.RefundedQuantity-l.Quantity)
			}
		}
	} else {
		r.Status, r.Amount = RefundSuccess, succeeded
	}
	o.Recalculate()
	o.Touch(now)
	return true
}

// Restock is a quantity of a variant to give back to stock.
type Restock struct {
	ProductID, VariantID string
	Quantity             int
}

// RestockRefund returns the stock to give back for a successful refund's restock
// lines: at most what the order claimed and has not given back. It marks it given back.
func (o *Order) RestockRefund(r *Refund) []Restock {
	var out []Restock
	for _, l := range r.Lines {
		if !l.Restock {
			continue
		}
		if rs, ok := o.takeRestock(l.LineItemID, l.Quantity); ok {
			out = append(out, rs)
		}
	}
	return out
}

// RestockUnfulfilled returns the claimed units that were neither given back yet nor
// fulfilled (cancel with restock: fulfilled units have left the warehouse, so they are
// taken to come out of the claim first) and marks them given back. Never more than
// claimed, and once: a second call returns nothing.
func (o *Order) RestockUnfulfilled() []Restock {
	var out []Restock
	for _, li := range o.LineItems {
		if rs, ok := o.takeRestock(li.ID, li.RestockableQuantity()-li.FulfilledQuantity); ok {
			out = append(out, rs)
		}
	}
	return out
}

func (o *Order) takeRestock(lineID string, q int) (Restock, bool) {
	li, err := o.LineItem(lineID)
	if err != nil {
		return Restock{}, false
	}
	n := min(q, li.RestockableQuantity())
	if n <= 0 {
		return Restock{}, false
	}
	li.RestockedQuantity += n
	return Restock{ProductID: li.ProductID, VariantID: li.VariantID, Quantity: n}, true
}
