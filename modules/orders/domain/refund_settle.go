package domain

import "time"

// RefundOutcome is a gateway's answer for one pending refund transaction. A final
// outcome settles the transaction (Succeeded or not, with Message when refused); one
// that is not final only notes the gateway's refund id: the refund settles later,
// when the payments module reports it.
type RefundOutcome struct {
	TransactionID   string
	GatewayRefundID string
	Message         string
	Final           bool
	Succeeded       bool
}

// NeedsGateway reports whether a refund transaction goes back through a payment
// gateway: not a manual record, nor money without a payment.
func (t Transaction) NeedsGateway() bool {
	return t.PaymentID != "" && t.Gateway != GatewayManual
}

// SettleRefund records the gateways' answers for a refund's transactions and finishes
// the refund when none of them is pending any more (FinishRefund). It returns the
// refund when it has just finished with success: the caller then restocks
// (RestockRefund) and publishes it.
func (o *Order) SettleRefund(id string, outcomes []RefundOutcome, now time.Time) *Refund {
	for _, oc := range outcomes {
		if oc.Final {
			o.SettleRefundTransaction(oc.TransactionID, oc.Succeeded, oc.GatewayRefundID, oc.Message, now)
		} else {
			o.NoteGatewayRefund(oc.TransactionID, oc.GatewayRefundID)
		}
	}
	if !o.FinishRefund(id, now) {
		return nil
	}
	return o.SucceededRefund(id)
}

// SucceededRefund is the refund with the id when it succeeded, nil otherwise.
func (o *Order) SucceededRefund(id string) *Refund {
	if r := o.FindRefund(id); r != nil && r.Status == RefundSuccess {
		return r
	}
	return nil
}
