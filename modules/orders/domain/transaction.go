package domain

import (
	"time"

	"github.com/shopspring/decimal"
)

// TransactionKind is what a money movement did (Shopify's kinds).
type TransactionKind string

// Transaction kinds.
const (
	KindAuthorization TransactionKind = "authorization"
	KindCapture       TransactionKind = "capture"
	KindSale          TransactionKind = "sale"
	KindVoid          TransactionKind = "void"
	KindRefund        TransactionKind = "refund"
)

// TransactionStatus is the outcome of a transaction.
type TransactionStatus string

// Transaction statuses.
const (
	TxPending TransactionStatus = "pending"
	TxSuccess TransactionStatus = "success"
	TxFailure TransactionStatus = "failure"
)

// GatewayManual names money recorded by hand (an offline payment: "mark as paid").
const GatewayManual = "manual"

// Transaction is one money movement of an order: a payment of the payments module
// (PaymentID pay_...), a refund of it (GatewayRefundID ref_...), or a manual record.
type Transaction struct {
	ID              string
	Kind            TransactionKind
	Status          TransactionStatus
	Amount          decimal.Decimal
	Currency        string
	Gateway         string
	PaymentID       string // payments' pay_<uuid>; "" for manual transactions
	ParentID        string // the transaction this one captures, voids or refunds
	RefundID        string // the order refund a refund transaction belongs to
	GatewayRefundID string // payments' ref_<uuid>
	ErrorCode       string
	Message         string
	CreatedAt       time.Time
	ProcessedAt     *time.Time
}

// Money sums the order's transactions.
type Money struct {
	Authorized    decimal.Decimal // successful authorizations not captured nor voided
	Received      decimal.Decimal // successful sales and captures
	Refunded      decimal.Decimal // successful refunds
	PendingRefund decimal.Decimal // refunds sent to the gateway, not settled yet
	Voided        bool            // an authorization was voided
	Failed        int             // failed payment attempts (sale and authorization)
}

// Money sums the transactions.
func (o *Order) Money() Money {
	m := Money{}
	consumed := map[string]bool{}
	for _, t := range o.Transactions {
		if t.Status == TxSuccess && (t.Kind == KindCapture || t.Kind == KindVoid) && t.ParentID != "" {
			consumed[t.ParentID] = true
		}
	}
	for _, t := range o.Transactions {
		switch {
		case t.Status == TxFailure && (t.Kind == KindSale || t.Kind == KindAuthorization):
			m.Failed++
		case t.Status == TxPending && t.Kind == KindRefund:
			m.PendingRefund = m.PendingRefund.Add(t.Amount)
		case t.Status != TxSuccess:
		case t.Kind == KindSale || t.Kind == KindCapture:
			m.Received = m.Received.Add(t.Amount)
		case t.Kind == KindRefund:
			m.Refunded = m.Refunded.Add(t.Amount)
		case t.Kind == KindAuthorization && !consumed[t.ID]:
			m.Authorized = m.Authorized.Add(t.Amount)
		case t.Kind == KindVoid:
			m.Voided = true
		}
	}
	return m
}

// Refundable is what may still be refunded: received less refunded and pending refunds.
func (m Money) Refundable() decimal.Decimal {
	return decimal.Max(decimal.Zero, m.Received.Sub(m.Refunded).Sub(m.PendingRefund))
}

// DeriveFinancial computes financial_status from the order total and its money
// (docs/decisions/0072 has the table; the first matching row wins):
//
//	refunded > 0 and refunded >= received   refunded
//	refunded > 0                            partially_refunded
//	received > 0 and received >= total      paid
//	received > 0                            partially_paid
//	open authorizations > 0                 authorized
//	an authorization was voided             voided
//	total = 0                               paid (nothing to pay)
//	otherwise                               pending
func DeriveFinancial(total decimal.Decimal, m Money) FinancialStatus {
	switch {
	case m.Refunded.IsPositive() && m.Refunded.GreaterThanOrEqual(m.Received):
		return FinancialRefunded
	case m.Refunded.IsPositive():
		return FinancialPartiallyRefunded
	case m.Received.IsPositive() && m.Received.GreaterThanOrEqual(total):
		return FinancialPaid
	case m.Received.IsPositive():
		return FinancialPartiallyPaid
	case m.Authorized.IsPositive():
		return FinancialAuthorized
	case m.Voided:
		return FinancialVoided
	case total.IsZero():
		return FinancialPaid
	default:
		return FinancialPending
	}
}

// Transaction finds a transaction by id.
func (o *Order) Transaction(id string) (*Transaction, error) {
	for _, t := range o.Transactions {
		if t.ID == id || (t.PaymentID != "" && t.PaymentID == id && (t.Kind == KindSale || t.Kind == KindCapture || t.Kind == KindAuthorization)) {
			return t, nil
		}
	}
	return nil, ErrTransactionNotFound
}

// findPayment returns the transaction recorded for a payment of a kind, if any.
func (o *Order) findPayment(paymentID string, kind TransactionKind) *Transaction {
	for _, t := range o.Transactions {
		if t.PaymentID == paymentID && t.Kind == kind {
			return t
		}
	}
	return nil
}

// PaymentEvent is a fact reported by the payments module about a payment of the order.
type PaymentEvent struct {
	PaymentID string
	Kind      TransactionKind // authorization, sale (captured), void, or sale with Failed
	Failed    bool
	Amount    decimal.Decimal
	Currency  string
	Gateway   string
	ErrorCode string
	Message   string
}

// RecordPayment applies a payment fact (idempotent per payment and kind): money the
// gateway moved is always recorded, whatever the order's status. It reports whether the
// order changed and whether money was received (order.payment_received).
//
// A captured payment that was authorized before is recorded as a capture of that
// authorization; otherwise as a sale. A void consumes the payment's authorization.
func (o *Order) RecordPayment(ev PaymentEvent, newID func() string, now time.Time) (changed, received bool) {
	kind := ev.Kind
	var parent string
	switch kind {
	case KindSale:
		if auth := o.findPayment(ev.PaymentID, KindAuthorization); auth != nil && !ev.Failed {
			kind, parent = KindCapture, auth.ID
		}
	case KindVoid:
		auth := o.findPayment(ev.PaymentID, KindAuthorization)
		if auth == nil {
			return false, false
		}
		parent = auth.ID
	case KindAuthorization, KindCapture, KindRefund:
	}
	status := TxSuccess
	if ev.Failed {
		status = TxFailure
	}
	if existing := o.findPayment(ev.PaymentID, kind); existing != nil {
		if existing.Status == status || existing.Status == TxSuccess {
			return false, false
		}
		// a failed attempt that later succeeded (3-D Secure completed): record the success
	}
	if kind == KindCapture {
		if sale := o.findPayment(ev.PaymentID, KindSale); sale != nil && sale.Status == TxSuccess {
			return false, false
		}
	}
	t := &Transaction{
		ID: newID(), Kind: kind, Status: status, Amount: ev.Amount, Currency: ev.Currency, Gateway: ev.Gateway,
		PaymentID: ev.PaymentID, ParentID: parent, ErrorCode: ev.ErrorCode, Message: ev.Message, CreatedAt: now, ProcessedAt: &now,
	}
	o.Transactions = append(o.Transactions, t)
	o.Recalculate()
	o.Touch(now)
	return true, status == TxSuccess && (kind == KindSale || kind == KindCapture)
}

// RefundFact is a refund the payments module reports (a refund made through the
// payments API or by the provider, or one of the order's own refunds settling).
type RefundFact struct {
	GatewayRefundID string
	PaymentID       string
	Amount          decimal.Decimal
	Currency        string
	Succeeded       bool
	Failed          bool
	Message         string
	// TransactionID is the order's pending refund transaction when the refund was
	// started by the orders module (refund metadata), else "".
	TransactionID string
}

// RecordRefund applies a refund fact, idempotently. A settled refund of one of the
// order's own pending transactions settles that transaction (SettleRefundTransaction);
// an unknown succeeded refund of the order's payment is recorded as a refund
// transaction of the payment's sale or capture. It returns the order refund to finish
// (if the fact settled one of its transactions) and whether anything changed.
func (o *Order) RecordRefund(f RefundFact, newID func() string, now time.Time) (refundID string, changed bool) {
	if !f.Succeeded && !f.Failed {
		return "", false
	}
	if f.TransactionID != "" {
		for _, t := range o.Transactions {
			if t.ID == f.TransactionID && t.Kind == KindRefund {
				return t.RefundID, o.SettleRefundTransaction(t.ID, f.Succeeded, f.GatewayRefundID, f.Message, now)
			}
		}
	}
	for _, t := range o.Transactions {
		if t.Kind == KindRefund && f.GatewayRefundID != "" && t.GatewayRefundID == f.GatewayRefundID {
			if t.Status == TxPending {
				return t.RefundID, o.SettleRefundTransaction(t.ID, f.Succeeded, f.GatewayRefundID, f.Message, now)
			}
			return "", false
		}
	}
	if !f.Succeeded {
		return "", false
	}
	var parent *Transaction
	for _, t := range o.Transactions {
		if t.PaymentID == f.PaymentID && t.Status == TxSuccess && (t.Kind == KindSale || t.Kind == KindCapture) {
			parent = t
		}
	}
	if parent == nil {
		return "", false
	}
	o.Transactions = append(o.Transactions, &Transaction{
		ID: newID(), Kind: KindRefund, Status: TxSuccess, Amount: f.Amount, Currency: f.Currency, Gateway: parent.Gateway,
		PaymentID: f.PaymentID, ParentID: parent.ID, GatewayRefundID: f.GatewayRefundID, CreatedAt: now, ProcessedAt: &now,
	})
	o.Recalculate()
	o.Touch(now)
	return "", true
}

// SettleRefundTransaction records the gateway's answer for a pending refund
// transaction; it is a no-op (false) when the transaction is already settled.
func (o *Order) SettleRefundTransaction(txID string, succeeded bool, gatewayRefundID, message string, now time.Time) bool {
	for _, t := range o.Transactions {
		if t.ID != txID || t.Kind != KindRefund {
			continue
		}
		if gatewayRefundID != "" && t.GatewayRefundID == "" {
			t.GatewayRefundID = gatewayRefundID
		}
		if t.Status != TxPending {
			return false
		}
		t.Status, t.ProcessedAt = TxFailure, &now
		if succeeded {
			t.Status = TxSuccess
		} else {
			t.Message = message
		}
		o.Recalculate()
		o.Touch(now)
		return true
	}
	return false
}

// MarkAsPaid records an offline payment (a manual sale) of amount (the outstanding
// amount when zero). Allowed while the order is pending or partially paid
// (INVALID_STATUS_TRANSITION otherwise); more than the outstanding amount is refused.
func (o *Order) MarkAsPaid(amount decimal.Decimal, newID func() string, now time.Time) (*Transaction, error) {
	if o.Financial != FinancialPending && o.Financial != FinancialPartiallyPaid {
		return nil, ErrInvalidStatusTransition.WithMessage("An order that is %s cannot be marked as paid", o.Financial)
	}
	outstanding := o.Outstanding()
	if amount.IsZero() {
		amount = outstanding
	}
	if !amount.IsPositive() || amount.GreaterThan(outstanding) {
		return nil, ErrInvalidPrice.WithMessage("amount must be positive and at most the outstanding %s", FormatMoney(outstanding, o.Currency)).
			WithField("amount", "must be positive and at most the outstanding amount")
	}
	t := &Transaction{ID: newID(), Kind: KindSale, Status: TxSuccess, Amount: amount, Currency: o.Currency, Gateway: GatewayManual, CreatedAt: now, ProcessedAt: &now}
	o.Transactions = append(o.Transactions, t)
	o.Recalculate()
	o.Touch(now)
	return t, nil
}

// Outstanding is the part of the total not received yet.
func (o *Order) Outstanding() decimal.Decimal {
	return decimal.Max(decimal.Zero, o.TotalPrice.Sub(o.Money().Received))
}

// OpenAuthorization returns the authorization transaction of id (its own id or its
// payment id) if it can still be captured or voided: INVALID_STATUS_TRANSITION when the
// order is not authorized, TRANSACTION_NOT_FOUND for an unknown id.
func (o *Order) OpenAuthorization(id string) (*Transaction, error) {
	t, err := o.Transaction(id)
	if err != nil {
		return nil, err
	}
	if t.Kind != KindAuthorization || t.Status != TxSuccess {
		return nil, ErrInvalidStatusTransition.WithMessage("Transaction %s is not a successful authorization", t.ID)
	}
	for _, x := range o.Transactions {
		if x.ParentID == t.ID && x.Status == TxSuccess && (x.Kind == KindCapture || x.Kind == KindVoid) {
			return nil, ErrInvalidStatusTransition.WithMessage("Authorization %s was already %s", t.ID, map[TransactionKind]string{KindCapture: "captured", KindVoid: "voided"}[x.Kind])
		}
	}
	if t.PaymentID == "" {
		return nil, ErrInvalidStatusTransition.WithMessage("Authorization %s has no gateway payment", t.ID)
	}
	return t, nil
}

// NoteGatewayRefund remembers the gateway's refund id of a pending refund transaction,
// so the settling event finds it.
func (o *Order) NoteGatewayRefund(txID, gatewayRefundID string) {
	for _, t := range o.Transactions {
		if t.ID == txID && t.GatewayRefundID == "" {
			t.GatewayRefundID = gatewayRefundID
		}
	}
}
