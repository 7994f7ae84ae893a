package domain

import "testing"

func TestSettleRefund(t *testing.T) {
	t.Parallel()
	paid := func() *Order {
		o := order()
		o.RecordPayment(PaymentEvent{PaymentID: "pay_1", Kind: KindSale, Amount: d("10"), Currency: "USD", Gateway: "test"}, seq(), t0)
		o.RecordPayment(PaymentEvent{PaymentID: "pay_2", Kind: KindSale, Amount: d("10"), Currency: "USD", Gateway: "test"}, seq(), t0)
		return o
	}
	start := func(o *Order) []*Transaction {
		_, txs, err := o.StartRefund("r1", RefundRequest{Transactions: []RefundTransactionRequest{{ParentID: "pay_1", Amount: d("4")}, {ParentID: "pay_2", Amount: d("3")}}}, seq(), t0)
		if err != nil || len(txs) != 2 {
			t.Fatalf("start %v %d", err, len(txs))
		}
		return txs
	}
	cases := []struct {
		name       string
		outcomes   func(a, b string) []RefundOutcome
		done       bool // returned as just finished with success
		status     string
		amount     string
		gatewayIDs [2]string
	}{
		{"both succeed", func(a, b string) []RefundOutcome {
			return []RefundOutcome{{TransactionID: a, GatewayRefundID: "ref_a", Final: true, Succeeded: true}, {TransactionID: b, GatewayRefundID: "ref_b", Final: true, Succeeded: true}}
		}, true, RefundSuccess, "7", [2]string{"ref_a", "ref_b"}},
		{"one refused: success with what went back", func(a, b string) []RefundOutcome {
			return []RefundOutcome{{TransactionID: a, Final: true, Succeeded: true}, {TransactionID: b, GatewayRefundID: "ref_b", Final: true, Message: "refused"}}
		}, true, RefundSuccess, "4", [2]string{"", "ref_b"}},
		{"both refused: failed", func(a, b string) []RefundOutcome {
			return []RefundOutcome{{TransactionID: a, Final: true, Message: "x"}, {TransactionID: b, Final: true, Message: "y"}}
		}, false, RefundFailed, "7", [2]string{}},
		{"one pending at its gateway: still pending", func(a, b string) []RefundOutcome {
			return []RefundOutcome{{TransactionID: a, Final: true, Succeeded: true}, {TransactionID: b, GatewayRefundID: "ref_b"}}
		}, false, RefundPending, "7", [2]string{"", "ref_b"}},
	}
	for _, tc := range cases {
		o := paid()
		txs := start(o)
		got := o.SettleRefund("r1", tc.outcomes(txs[0].ID, txs[1].ID), t0)
		r := o.FindRefund("r1")
		if (got != nil) != tc.done || r.Status != tc.status || r.Amount.String() != tc.amount ||
			txs[0].GatewayRefundID != tc.gatewayIDs[0] || txs[1].GatewayRefundID != tc.gatewayIDs[1] {
			t.Errorf("%s: done %v, refund %s %s, gateway ids %q %q", tc.name, got != nil, r.Status, r.Amount, txs[0].GatewayRefundID, txs[1].GatewayRefundID)
		}
		if got := o.SettleRefund("r1", nil, t0); got != nil { // settles once
			t.Errorf("%s: settled again", tc.name)
		}
	}
	if (Transaction{PaymentID: "pay_1", Gateway: "test"}).NeedsGateway() != true ||
		(Transaction{PaymentID: "pay_1", Gateway: GatewayManual}).NeedsGateway() || (Transaction{Gateway: "test"}).NeedsGateway() {
		t.Error("NeedsGateway")
	}
}
