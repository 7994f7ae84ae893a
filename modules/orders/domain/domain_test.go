package domain

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/apperr"
)

var t0 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func seq() func() string {
	n := 0
	return func() string { n++; return fmt.Sprintf("id-%03d", n) }
}

func code(err error) string {
	if e, ok := apperr.As(err); ok {
		if e.Code != "" {
			return e.Code
		}
		if e.Kind == apperr.Invalid {
			return "VALIDATION"
		}
	}
	if err != nil {
		return "OTHER"
	}
	return ""
}

// order builds an open order: two lines (2 × 10.00 taxable, 1 × 5.50 not taxable),
// 4.99 shipping.
func order() *Order {
	o := &Order{
		ID: "o1", Number: 1001, Status: StatusOpen, Currency: "USD", Email: "a@example.com",
		LineItems: []*LineItem{
			{ID: "l1", ProductID: "p1", VariantID: "v1", Quantity: 2, Price: d("10"), Taxable: true, Grams: d("500"), InventoryTracked: true, ClaimedQuantity: 2},
			{ID: "l2", ProductID: "p2", VariantID: "v2", Quantity: 1, Price: d("5.5"), Grams: d("453.59237")},
		},
		ShippingLines: []ShippingLine{{ID: "s1", Title: "Standard", Price: d("4.99")}},
		CreatedAt:     t0, UpdatedAt: t0, ProcessedAt: t0,
	}
	o.Recalculate()
	return o
}

func TestParseMoney(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in, currency, want, code string
	}{
		{"19.99", "USD", "19.99", ""},
		{"20", "USD", "20", ""},
		{"0", "USD", "0", ""},
		{"1.999", "USD", "", "INVALID_PRICE"},
		{"10.5", "JPY", "", "INVALID_PRICE"},
		{"1999", "JPY", "1999", ""},
		{"1.250", "BHD", "1.25", ""},
		{"-1", "USD", "", "INVALID_PRICE"},
		{"1e3", "USD", "", "INVALID_PRICE"},
		{"", "USD", "", "INVALID_PRICE"},
		{"1234567890123456", "USD", "", "INVALID_PRICE"},
	}
	for _, c := range cases {
		got, err := ParseMoney(c.in, c.currency, "price")
		if code(err) != c.code || (err == nil && !got.Equal(d(c.want))) {
			t.Errorf("ParseMoney(%q, %s) = %s, %v; want %s %s", c.in, c.currency, got, err, c.want, c.code)
		}
	}
	if FormatMoney(d("19.9"), "USD") != "19.90" || FormatMoney(d("1999"), "JPY") != "1999" || FormatMoney(d("1.25"), "BHD") != "1.250" {
		t.Error("FormatMoney")
	}
	if _, err := NormalizeCurrency("usd"); err != nil {
		t.Error(err)
	}
	if _, err := NormalizeCurrency("XXX"); code(err) != "INVALID_CURRENCY" {
		t.Error("XXX accepted")
	}
	if Units(d("19.99")) != 199900 {
		t.Error("Units")
	}
}

func TestToKilograms(t *testing.T) {
	t.Parallel()
	cases := []struct {
		w, unit, kg string
	}{
		{"1.5", "kg", "1.500"}, {"250", "g", "0.250"}, {"1", "lb", "0.454"}, {"16", "oz", "0.454"}, {"2", "", "2.000"}, {"10", "oz", "0.283"},
	}
	for _, c := range cases {
		if got := FormatWeight(ToKilograms(d(c.w), c.unit).Round(WeightDecimals)); got != c.kg {
			t.Errorf("%s %s = %s kg, want %s", c.w, c.unit, got, c.kg)
		}
	}
}

func TestTotals(t *testing.T) {
	t.Parallel()
	o := order()
	// 2 × 10 + 5.50 = 25.50; weight 2 × 500 g + 1 lb = 1.454 kg.
	if o.Subtotal.String() != "25.5" || o.TotalShipping.String() != "4.99" || o.TotalPrice.String() != "30.49" ||
		FormatWeight(o.TotalWeightKg) != "1.454" || o.TotalItems != 3 {
		t.Fatalf("totals %s %s %s %s %d", o.Subtotal, o.TotalShipping, o.TotalPrice, o.TotalWeightKg, o.TotalItems)
	}
	if o.Financial != FinancialPending || o.Fulfillment != FulfillmentUnfulfilled {
		t.Fatalf("statuses %s %s", o.Financial, o.Fulfillment)
	}
	// A 5.10 discount and a 20% tax on the taxable lines less their discount share:
	// share = round(5.10 × 20 / 25.50) = 4.00, base 16.00, tax 3.20.
	o.DiscountCodes = []DiscountCode{{Code: "SAVE", Type: "fixed_amount", Amount: d("5.10")}}
	o.TaxLines = []TaxLine{{ID: "t1", Title: "VAT", Rate: d("0.2")}, {ID: "t2", Title: "Fixed", Price: d("1.00")}}
	o.Retax(nil)
	if o.TotalDiscounts.String() != "5.1" || o.TaxLines[0].Price.String() != "3.2" || o.TotalTax.String() != "4.2" ||
		o.TotalPrice.String() != "29.59" {
		t.Fatalf("discounted %s tax %s/%s total %s", o.TotalDiscounts, o.TaxLines[0].Price, o.TotalTax, o.TotalPrice)
	}
	// Discounts never make the total negative.
	o.DiscountCodes[0].Amount = d("100")
	o.TaxLines = nil
	o.Recalculate()
	if !o.TotalPrice.IsZero() || o.TotalDiscounts.String() != "30.49" {
		t.Fatalf("capped %s %s", o.TotalPrice, o.TotalDiscounts)
	}
	// A free order is paid.
	if o.Financial != FinancialPaid {
		t.Fatalf("free order %s", o.Financial)
	}
}

func TestDeriveFinancial(t *testing.T) {
	t.Parallel()
	cases := []struct {
		total string
		m     Money
		want  FinancialStatus
	}{
		{"10", Money{}, FinancialPending},
		{"0", Money{}, FinancialPaid},
		{"10", Money{Authorized: d("10")}, FinancialAuthorized},
		{"10", Money{Voided: true}, FinancialVoided},
		{"10", Money{Received: d("4")}, FinancialPartiallyPaid},
		{"10", Money{Received: d("10")}, FinancialPaid},
		{"10", Money{Received: d("12")}, FinancialPaid},
		{"10", Money{Received: d("10"), Refunded: d("3")}, FinancialPartiallyRefunded},
		{"10", Money{Received: d("10"), Refunded: d("10")}, FinancialRefunded},
		{"10", Money{Received: d("4"), Refunded: d("4")}, FinancialRefunded},
		{"10", Money{Received: d("10"), PendingRefund: d("10")}, FinancialPaid},
		{"10", Money{Received: d("10"), Authorized: d("5")}, FinancialPaid},
	}
	for _, c := range cases {
		if got := DeriveFinancial(d(c.total), c.m); got != c.want {
			t.Errorf("DeriveFinancial(%s, %+v) = %s, want %s", c.total, c.m, got, c.want)
		}
	}
}

// TestFinancialMoves walks the moves of docs/decisions/0072 through the payment facts.
func TestFinancialMoves(t *testing.T) {
	t.Parallel()
	type step struct {
		ev       PaymentEvent
		changed  bool
		received bool
		want     FinancialStatus
	}
	pay := func(id, kind, amount string) PaymentEvent {
		return PaymentEvent{PaymentID: id, Kind: TransactionKind(kind), Amount: d(amount), Currency: "USD", Gateway: "test"}
	}
	failed := pay("pay_f", "sale", "30.49")
	failed.Failed = true
	cases := []struct {
		name  string
		steps []step
	}{
		{"sale pays", []step{{pay("pay_1", "sale", "30.49"), true, true, FinancialPaid}, {pay("pay_1", "sale", "30.49"), false, false, FinancialPaid}}},
		{"two parts", []step{{pay("pay_1", "sale", "10"), true, true, FinancialPartiallyPaid}, {pay("pay_2", "sale", "20.49"), true, true, FinancialPaid}}},
		{"authorize capture", []step{
			{pay("pay_1", "authorization", "30.49"), true, false, FinancialAuthorized},
			{pay("pay_1", "authorization", "30.49"), false, false, FinancialAuthorized},
			{pay("pay_1", "sale", "30.49"), true, true, FinancialPaid},
			{pay("pay_1", "sale", "30.49"), false, false, FinancialPaid},
		}},
		{"authorize void", []step{{pay("pay_1", "authorization", "30.49"), true, false, FinancialAuthorized}, {pay("pay_1", "void", "30.49"), true, false, FinancialVoided}}},
		{"void without authorization", []step{{pay("pay_1", "void", "30.49"), false, false, FinancialPending}}},
		{"failed attempt", []step{{failed, true, false, FinancialPending}, {failed, false, false, FinancialPending}, {pay("pay_f", "sale", "30.49"), true, true, FinancialPaid}}},
	}
	for _, c := range cases {
		o := order()
		ids := seq()
		for i, s := range c.steps {
			changed, received := o.RecordPayment(s.ev, ids, t0)
			if changed != s.changed || received != s.received || o.Financial != s.want {
				t.Errorf("%s step %d: changed %v received %v status %s; want %v %v %s", c.name, i, changed, received, o.Financial, s.changed, s.received, s.want)
			}
		}
	}
	o := order()
	if _, err := o.MarkAsPaid(decimal.Zero, seq(), t0); err != nil || o.Financial != FinancialPaid || o.Outstanding().Sign() != 0 {
		t.Fatalf("mark as paid: %v %s", err, o.Financial)
	}
	if _, err := o.MarkAsPaid(decimal.Zero, seq(), t0); code(err) != "INVALID_STATUS_TRANSITION" {
		t.Fatalf("mark a paid order as paid: %v", err)
	}
	o = order()
	if _, err := o.MarkAsPaid(d("31"), seq(), t0); code(err) != "INVALID_PRICE" {
		t.Fatalf("more than outstanding: %v", err)
	}
	if _, err := o.OpenAuthorization("nope"); code(err) != "TRANSACTION_NOT_FOUND" {
		t.Fatalf("unknown authorization: %v", err)
	}
}

func TestTransitions(t *testing.T) {
	t.Parallel()
	type setup func(o *Order)
	fulfilled := func(o *Order) {
		if _, err := o.Fulfill("f1", "", nil, Tracking{}, t0); err != nil {
			t.Fatal(err)
		}
	}
	paid := func(o *Order) {
		if _, err := o.MarkAsPaid(decimal.Zero, seq(), t0); err != nil {
			t.Fatal(err)
		}
	}
	cancelled := func(o *Order) { o.Status = StatusCancelled }
	closed := func(o *Order) { o.Status = StatusClosed }
	cases := []struct {
		name  string
		setup []setup
		op    string
		code  string
		want  Status
	}{
		{"cancel open", nil, "cancel", "", StatusCancelled},
		{"cancel cancelled", []setup{cancelled}, "cancel", "ORDER_ALREADY_CANCELLED", StatusCancelled},
		{"cancel closed", []setup{closed}, "cancel", "INVALID_STATUS_TRANSITION", StatusClosed},
		{"cancel with fulfillments", []setup{fulfilled}, "cancel", "", StatusCancelled},
		{"close fulfilled paid", []setup{fulfilled, paid}, "close", "", StatusClosed},
		{"close fulfilled unpaid", []setup{fulfilled}, "close", "PAYMENT_REQUIRED", StatusOpen},
		{"close unfulfilled", []setup{paid}, "close", "INVALID_STATUS_TRANSITION", StatusOpen},
		{"close closed", []setup{closed}, "close", "ORDER_ALREADY_CLOSED", StatusClosed},
		{"close cancelled", []setup{cancelled}, "close", "INVALID_STATUS_TRANSITION", StatusCancelled},
		{"reopen open", nil, "reopen", "INVALID_STATUS_TRANSITION", StatusOpen},
		{"reopen closed", []setup{closed}, "reopen", "", StatusOpen},
		{"reopen cancelled", []setup{cancelled}, "reopen", "", StatusOpen},
	}
	for _, c := range cases {
		o := order()
		for _, s := range c.setup {
			s(o)
		}
		var err error
		switch c.op {
		case "cancel":
			err = o.Cancel(CancelFraudulent, t0.Add(time.Hour))
		case "close":
			err = o.Close(t0.Add(time.Hour))
		case "reopen":
			err = o.Reopen(t0.Add(time.Hour))
		}
		if code(err) != c.code || o.Status != c.want {
			t.Errorf("%s: %v, status %s; want %q %s", c.name, err, o.Status, c.code, c.want)
		}
		if c.code == "" {
			switch c.want {
			case StatusCancelled:
				if o.CancelReason != CancelFraudulent || o.CancelledAt == nil {
					t.Errorf("%s: cancel fields", c.name)
				}
			case StatusClosed:
				if o.ClosedAt == nil {
					t.Errorf("%s: closed_at", c.name)
				}
			case StatusOpen:
				if o.ClosedAt != nil || o.CancelledAt != nil || o.CancelReason != "" {
					t.Errorf("%s: reopen kept fields", c.name)
				}
			}
			if !o.UpdatedAt.After(t0) && c.op != "close" {
				t.Errorf("%s: not touched", c.name)
			}
		}
	}
}

func TestFulfillments(t *testing.T) {
	t.Parallel()
	o := order()
	if _, err := o.Fulfill("f0", "", []FulfillmentLine{{LineItemID: "nope", Quantity: 1}}, Tracking{}, t0); code(err) != "LINE_ITEM_NOT_FOUND" {
		t.Fatalf("unknown line: %v", err)
	}
	if _, err := o.Fulfill("f0", "", []FulfillmentLine{{LineItemID: "l1", Quantity: 3}}, Tracking{}, t0); code(err) != "INVALID_QUANTITY" {
		t.Fatalf("too many: %v", err)
	}
	if _, err := o.Fulfill("f0", "", []FulfillmentLine{{LineItemID: "l1", Quantity: 1}, {LineItemID: "l1", Quantity: 2}}, Tracking{}, t0); code(err) != "INVALID_QUANTITY" {
		t.Fatalf("too many over two entries: %v", err)
	}
	bad := "ftp://x"
	if _, err := o.Fulfill("f0", "", nil, Tracking{URL: &bad}, t0); code(err) != "VALIDATION" {
		t.Fatalf("bad url: %v", err)
	}
	f1, err := o.Fulfill("f1", "loc", []FulfillmentLine{{LineItemID: "l1", Quantity: 1}}, Tracking{}, t0)
	if err != nil || o.Fulfillment != FulfillmentPartial || o.LineItems[0].FulfillableQuantity() != 1 || len(f1.Lines) != 1 {
		t.Fatalf("partial: %v %s", err, o.Fulfillment)
	}
	f2, err := o.Fulfill("f2", "", nil, Tracking{}, t0)
	if err != nil || o.Fulfillment != FulfillmentFulfilled || len(f2.Lines) != 2 || f2.Lines[0].Quantity != 1 || f2.Lines[1].Quantity != 1 {
		t.Fatalf("rest: %v %s %+v", err, o.Fulfillment, f2)
	}
	if _, err := o.Fulfill("f3", "", nil, Tracking{}, t0); code(err) != "INVALID_QUANTITY" {
		t.Fatalf("nothing left: %v", err)
	}
	num := "1Z999"
	if f, err := o.UpdateTracking("f1", Tracking{Number: &num}, t0); err != nil || f.TrackingNumber != "1Z999" {
		t.Fatalf("tracking: %v", err)
	}
	if _, err := o.UpdateTracking("nope", Tracking{}, t0); code(err) != "FULFILLMENT_NOT_FOUND" {
		t.Fatalf("unknown: %v", err)
	}
	if _, err := o.CancelFulfillment("f2", t0); err != nil || o.Fulfillment != FulfillmentPartial || o.LineItems[1].FulfilledQuantity != 0 {
		t.Fatalf("cancel: %v %s", err, o.Fulfillment)
	}
	if _, err := o.CancelFulfillment("f2", t0); code(err) != "INVALID_STATUS_TRANSITION" {
		t.Fatalf("cancel twice: %v", err)
	}
	if _, err := o.UpdateTracking("f2", Tracking{Number: &num}, t0); code(err) != "INVALID_STATUS_TRANSITION" {
		t.Fatalf("update cancelled: %v", err)
	}
	o.Status = StatusCancelled
	if _, err := o.Fulfill("f4", "", nil, Tracking{}, t0); code(err) != "ORDER_ALREADY_CANCELLED" {
		t.Fatalf("fulfil cancelled: %v", err)
	}
}

func TestLineItemEdits(t *testing.T) {
	t.Parallel()
	o := order()
	o.TaxLines = []TaxLine{{ID: "t1", Title: "VAT", Rate: d("0.1")}}
	o.Retax(nil)
	if o.TotalTax.String() != "2" {
		t.Fatalf("tax %s", o.TotalTax)
	}
	if err := o.AddLineItem(&LineItem{ID: "l3", Quantity: 0, Price: d("1")}, t0); code(err) != "INVALID_QUANTITY" {
		t.Fatalf("quantity 0: %v", err)
	}
	if err := o.AddLineItem(&LineItem{ID: "l3", ProductID: "p3", Quantity: 3, Price: d("10"), Taxable: true}, t0); err != nil {
		t.Fatal(err)
	}
	if o.Subtotal.String() != "55.5" || o.TotalTax.String() != "5" || o.TotalItems != 6 {
		t.Fatalf("after add %s %s %d", o.Subtotal, o.TotalTax, o.TotalItems)
	}
	q, p := 1, d("12.5")
	if _, delta, err := o.ChangeLineItem("l1", &q, &p, t0); err != nil || delta != -1 || o.Subtotal.String() != "48" {
		t.Fatalf("change: %v %d %s", err, delta, o.Subtotal)
	}
	big := MaxQuantity + 1
	if _, _, err := o.ChangeLineItem("l1", &big, nil, t0); code(err) != "INVALID_QUANTITY" {
		t.Fatalf("too big: %v", err)
	}
	if _, _, err := o.ChangeLineItem("nope", &q, nil, t0); code(err) != "LINE_ITEM_NOT_FOUND" {
		t.Fatalf("unknown: %v", err)
	}
	li := o.LineItems[0]
	if rs, ok := ReleaseExcess(li, li.Quantity); !ok || rs.Quantity != 1 || li.RestockableQuantity() != 1 {
		t.Fatalf("release %+v %v", rs, ok)
	}
	if _, err := o.RemoveLineItem("l3", t0); err != nil || len(o.LineItems) != 2 || o.LineItems[1].Position != 2 {
		t.Fatalf("remove: %v", err)
	}
	if _, err := o.RemoveLineItem("l2", t0); err != nil {
		t.Fatal(err)
	}
	if _, err := o.RemoveLineItem("l1", t0); code(err) != "INVALID_QUANTITY" {
		t.Fatalf("last line: %v", err)
	}
	if _, err := o.Fulfill("f1", "", nil, Tracking{}, t0); err != nil {
		t.Fatal(err)
	}
	if err := o.AddLineItem(&LineItem{ID: "l4", Quantity: 1, Price: d("1")}, t0); code(err) != "INVALID_STATUS_TRANSITION" {
		t.Fatalf("edit fulfilled: %v", err)
	}
	o.Status = StatusClosed
	if _, err := o.RemoveLineItem("l1", t0); code(err) != "ORDER_ALREADY_CLOSED" {
		t.Fatalf("edit closed: %v", err)
	}
}

func TestRefunds(t *testing.T) {
	t.Parallel()
	o := order()
	o.DiscountCodes = []DiscountCode{{Code: "SAVE", Amount: d("5.10")}}
	o.TaxLines = []TaxLine{{ID: "t1", Title: "VAT", Rate: d("0.2")}}
	o.Retax(nil) // total 25.50 - 5.10 + 3.20 + 4.99 = 28.59
	ids := seq()
	// Nothing received: nothing can be refunded in money.
	if _, _, err := o.StartRefund("r0", RefundRequest{Lines: []RefundLineRequest{{LineItemID: "l1", Quantity: 1}}}, ids, t0); code(err) != "REFUND_EXCEEDS_TOTAL" {
		t.Fatalf("unpaid: %v", err)
	}
	o.RecordPayment(PaymentEvent{PaymentID: "pay_1", Kind: KindSale, Amount: d("28.59"), Currency: "USD", Gateway: "test"}, ids, t0)
	calc, err := o.CalculateRefund(RefundRequest{Lines: []RefundLineRequest{{LineItemID: "l1", Quantity: 1, Restock: true}}, FullShipping: true})
	// line: 10.00 less its discount share round(5.10 × 10 / 25.50) = 2.00 → 8.00; tax 3.20 × 8 / 16 = 1.60.
	if err != nil || calc.Subtotal.String() != "8" || calc.Tax.String() != "1.6" || calc.Shipping.String() != "4.99" || calc.Total.String() != "14.59" ||
		calc.MaximumRefundable.String() != "28.59" || len(calc.Transactions) != 1 || calc.Transactions[0].Amount.String() != "14.59" {
		t.Fatalf("calc %v %+v", err, calc)
	}
	for _, c := range []struct {
		req  RefundRequest
		code string
	}{
		{RefundRequest{Lines: []RefundLineRequest{{LineItemID: "nope", Quantity: 1}}}, "LINE_ITEM_NOT_FOUND"},
		{RefundRequest{Lines: []RefundLineRequest{{LineItemID: "l1", Quantity: 0}}}, "INVALID_QUANTITY"},
		{RefundRequest{Lines: []RefundLineRequest{{LineItemID: "l1", Quantity: 3}}}, "INVALID_QUANTITY"},
		{RefundRequest{ShippingAmount: func() *decimal.Decimal { x := d("5"); return &x }()}, "REFUND_EXCEEDS_TOTAL"},
		{RefundRequest{Transactions: []RefundTransactionRequest{{ParentID: "nope", Amount: d("1")}}}, "VALIDATION"},
		{RefundRequest{Transactions: []RefundTransactionRequest{{ParentID: "pay_1", Amount: d("28.60")}}}, "REFUND_EXCEEDS_TOTAL"},
		{RefundRequest{}, "VALIDATION"},
	} {
		if _, _, err := o.StartRefund("rx", c.req, ids, t0); code(err) != c.code {
			t.Errorf("%+v: %v, want %s", c.req, err, c.code)
		}
	}
	r, txs, err := o.StartRefund("r1", RefundRequest{Lines: []RefundLineRequest{{LineItemID: "l1", Quantity: 1, Restock: true}}, FullShipping: true}, ids, t0)
	if err != nil || r.Status != RefundPending || len(txs) != 1 || o.LineItems[0].RefundedQuantity != 1 || o.Money().PendingRefund.String() != "14.59" {
		t.Fatalf("start %v %+v", err, r)
	}
	if o.FinishRefund("r1", t0) {
		t.Fatal("finished while pending")
	}
	// Pending refunds count against what is refundable.
	if _, _, err := o.StartRefund("r2", RefundRequest{Transactions: []RefundTransactionRequest{{ParentID: "pay_1", Amount: d("14.01")}}}, ids, t0); code(err) != "REFUND_EXCEEDS_TOTAL" {
		t.Fatalf("over pending: %v", err)
	}
	if !o.SettleRefundTransaction(txs[0].ID, true, "ref_1", "", t0) || o.SettleRefundTransaction(txs[0].ID, true, "ref_1", "", t0) {
		t.Fatal("settle is not idempotent")
	}
	if !o.FinishRefund("r1", t0) || r.Status != RefundSuccess || r.Amount.String() != "14.59" || o.Financial != FinancialPartiallyRefunded {
		t.Fatalf("finish %+v %s", r, o.Financial)
	}
	if rs := o.RestockRefund(r); len(rs) != 1 || rs[0].Quantity != 1 || o.LineItems[0].RestockedQuantity != 1 {
		t.Fatalf("restock %+v", rs)
	}
	// A refund that fails gives its quantities back.
	r3, txs3, err := o.StartRefund("r3", RefundRequest{Lines: []RefundLineRequest{{LineItemID: "l2", Quantity: 1}}}, ids, t0)
	if err != nil || o.LineItems[1].RefundedQuantity != 1 {
		t.Fatal(err)
	}
	o.SettleRefundTransaction(txs3[0].ID, false, "", "declined", t0)
	if !o.FinishRefund("r3", t0) || r3.Status != RefundFailed || o.LineItems[1].RefundedQuantity != 0 || o.Financial != FinancialPartiallyRefunded {
		t.Fatalf("failed refund %+v", r3)
	}
	// The rest: an external refund reported by payments, then idempotent.
	if id, changed := o.RecordRefund(RefundFact{GatewayRefundID: "ref_9", PaymentID: "pay_1", Amount: d("14"), Currency: "USD", Succeeded: true}, ids, t0); id != "" || !changed {
		t.Fatal("external refund not recorded")
	}
	if _, changed := o.RecordRefund(RefundFact{GatewayRefundID: "ref_9", PaymentID: "pay_1", Amount: d("14"), Currency: "USD", Succeeded: true}, ids, t0); changed {
		t.Fatal("external refund recorded twice")
	}
	if o.Financial != FinancialRefunded || o.Money().Refundable().String() != "0" {
		t.Fatalf("after external %s %s", o.Financial, o.Money().Refundable())
	}
	// The order's own refund settled by event is found by its transaction id.
	r4, txs4, err := o.StartRefund("r4", RefundRequest{Lines: []RefundLineRequest{{LineItemID: "l2", Quantity: 1}}, Transactions: []RefundTransactionRequest{}}, ids, t0)
	if err != nil || r4.Status != RefundSuccess || len(txs4) != 0 {
		t.Fatalf("items-only refund %v %+v", err, r4)
	}
	if _, _, err := o.StartRefund("r5", RefundRequest{Transactions: []RefundTransactionRequest{{ParentID: "pay_1", Amount: d("0.01")}}}, ids, t0); code(err) != "REFUND_EXCEEDS_TOTAL" {
		t.Fatalf("nothing left: %v", err)
	}
}

func TestRefundsSettledByEvent(t *testing.T) {
	t.Parallel()
	o := order()
	ids := seq()
	o.RecordPayment(PaymentEvent{PaymentID: "pay_1", Kind: KindSale, Amount: d("30.49"), Currency: "USD"}, ids, t0)
	_, txs, err := o.StartRefund("r1", RefundRequest{FullShipping: true}, ids, t0)
	if err != nil {
		t.Fatal(err)
	}
	id, changed := o.RecordRefund(RefundFact{GatewayRefundID: "ref_1", PaymentID: "pay_1", Amount: d("4.99"), Succeeded: true, TransactionID: txs[0].ID}, ids, t0)
	if id != "r1" || !changed || !o.FinishRefund("r1", t0) || o.Money().Refunded.String() != "4.99" {
		t.Fatalf("settled by event: %s %v %s", id, changed, o.Money().Refunded)
	}
	if _, changed := o.RecordRefund(RefundFact{GatewayRefundID: "ref_1", PaymentID: "pay_1", Amount: d("4.99"), Succeeded: true, TransactionID: txs[0].ID}, ids, t0); changed {
		t.Fatal("settled twice")
	}
}

func TestCancelRestock(t *testing.T) {
	t.Parallel()
	o := order()
	rs := o.RestockUnfulfilled()
	if len(rs) != 1 || rs[0].Quantity != 2 || rs[0].VariantID != "v1" || len(o.RestockUnfulfilled()) != 0 {
		t.Fatalf("restock all %+v", rs)
	}
	// Fulfilled units have left the warehouse: only the claimed, unfulfilled ones go back.
	o = order()
	o.LineItems[0].FulfilledQuantity = 1
	if rs := o.RestockUnfulfilled(); len(rs) != 1 || rs[0].Quantity != 1 || o.LineItems[0].RestockedQuantity != 1 || len(o.RestockUnfulfilled()) != 0 {
		t.Fatalf("restock unfulfilled %+v", rs)
	}
	o = order()
	o.LineItems[0].FulfilledQuantity = 2
	if rs := o.RestockUnfulfilled(); len(rs) != 0 {
		t.Fatalf("restock fulfilled %+v", rs)
	}
}

func TestUpdate(t *testing.T) {
	t.Parallel()
	o := order()
	email, note := "new@example.com", "call first"
	tags := []string{" vip ", "VIP", "", "wholesale"}
	addr := &Address{Country: "DE"}
	changed, err := o.Update(Patch{Email: &email, Note: &note, Tags: &tags, ShippingAddress: &addr}, t0.Add(time.Minute))
	if err != nil || !changed || o.Email != email || o.Note != note || len(o.Tags) != 2 || o.Tags[0] != "vip" || o.ShippingAddress.Country != "DE" || !o.UpdatedAt.After(t0) {
		t.Fatalf("update %v %+v", err, o)
	}
	bad := "not-an-email"
	if _, err := o.Update(Patch{Email: &bad}, t0); code(err) != "INVALID_EMAIL" {
		t.Fatalf("bad email: %v", err)
	}
	var none *Address
	if _, err := o.Update(Patch{ShippingAddress: &none}, t0); err != nil || o.ShippingAddress != nil {
		t.Fatalf("clear address: %v", err)
	}
	if changed, _ := o.Update(Patch{}, t0); changed {
		t.Fatal("empty patch changed the order")
	}
}

func TestRiskAssessment(t *testing.T) {
	t.Parallel()
	rules := DefaultRiskRules
	cases := []struct {
		name    string
		in      RiskInput
		score   int
		rec     string
		reasons []string
	}{
		{"clean", RiskInput{Email: "a@example.com", BillingCountry: "DE", ShippingCountry: "de", Total: d("50"), LargeOrderThreshold: d("1000")}, 0, RecommendAccept, nil},
		{"countries differ", RiskInput{Email: "a@example.com", BillingCountry: "US", ShippingCountry: "NG"}, 25, RecommendAccept, []string{RiskCountryMismatch}},
		{"one country missing", RiskInput{BillingCountry: "US"}, 0, RecommendAccept, nil},
		{"failed payments", RiskInput{FailedPayments: 3}, 30, RecommendInvestigate, []string{RiskFailedPayments}},
		{"two failures", RiskInput{FailedPayments: 2}, 0, RecommendAccept, nil},
		{"large order", RiskInput{Total: d("1000"), LargeOrderThreshold: d("1000"), Currency: "USD"}, 25, RecommendAccept, []string{RiskLargeOrder}},
		{"large rule off", RiskInput{Total: d("1000000")}, 0, RecommendAccept, nil},
		{"disposable", RiskInput{Email: "x@Mailinator.com"}, 30, RecommendInvestigate, []string{RiskDisposableEmail}},
		{"disposable subdomain", RiskInput{Email: "x@eu.yopmail.com"}, 30, RecommendInvestigate, []string{RiskDisposableEmail}},
		{"lookalike", RiskInput{Email: "x@notmailinator.com"}, 0, RecommendAccept, nil},
		{"three signals", RiskInput{Email: "x@yopmail.com", BillingCountry: "US", ShippingCountry: "NG", FailedPayments: 5}, 85, RecommendCancel, []string{RiskCountryMismatch, RiskFailedPayments, RiskDisposableEmail}},
		{"everything capped", RiskInput{Email: "x@yopmail.com", BillingCountry: "US", ShippingCountry: "NG", FailedPayments: 5, Total: d("5000"), LargeOrderThreshold: d("100")}, 100, RecommendCancel, []string{RiskCountryMismatch, RiskFailedPayments, RiskLargeOrder, RiskDisposableEmail}},
	}
	for _, c := range cases {
		got := AssessRisk(c.in, rules)
		var codes []string
		for _, r := range got.Reasons {
			codes = append(codes, r.Code)
		}
		if got.Score != c.score || got.Recommendation != c.rec || fmt.Sprint(codes) != fmt.Sprint(c.reasons) {
			t.Errorf("%s: %d %s %v; want %d %s %v", c.name, got.Score, got.Recommendation, codes, c.score, c.rec, c.reasons)
		}
	}
}

func TestNotesAndTags(t *testing.T) {
	t.Parallel()
	if _, err := NewNote("n", "o", "  ", "", "staff", false, t0); code(err) != "VALIDATION" {
		t.Fatal("empty body accepted")
	}
	n, err := NewNote("n", "o", " hello ", "", "staff@example.com", true, t0)
	if err != nil || n.Body != "hello" || n.Author != "staff@example.com" || !n.NotifyCustomer {
		t.Fatalf("note %v %+v", err, n)
	}
	many := make([]string, MaxTags+1)
	for i := range many {
		many[i] = fmt.Sprint("t", i)
	}
	if _, err := NormalizeTags(many); code(err) != "VALIDATION" {
		t.Fatal("too many tags")
	}
	if e, err := NormalizeEmail(" a@b.co "); err != nil || e != "a@b.co" {
		t.Fatal("email")
	}
	if !errors.Is(ErrInvalidQuantity.WithMessage("x"), ErrInvalidQuantity) {
		t.Fatal("errors.Is on code")
	}
	if err := CheckQuantity(MaxQuantity); err != nil {
		t.Fatal(err)
	}
}
