package app

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/orders/api"
	"github.com/gocommerce/commerce/modules/orders/domain"
	"github.com/gocommerce/commerce/modules/orders/ports"
	"github.com/gocommerce/commerce/platform/apperr"
)

// RecordPayment applies a payment fact reported by the payments module to the order it
// names (ignored when there is no such order or the currency differs). Money received
// writes order.payment_received; other changes (authorization, void, failed attempt)
// write order.updated. Idempotent: a re-delivered fact changes nothing.
func (s *Service) RecordPayment(ctx context.Context, orderKey string, ev domain.PaymentEvent) error {
	if strings.TrimSpace(orderKey) == "" {
		return nil
	}
	if recorded, err := s.saleRecorded(ctx, orderKey, ev); err != nil || recorded {
		return err
	}
	changed, received := false, false
	_, err := s.change(ctx, orderKey, func(_ context.Context, o *domain.Order) error {
		if ev.Currency != "" && !strings.EqualFold(ev.Currency, o.Currency) {
			return ports.ErrUnchanged
		}
		changed, received = o.RecordPayment(ev, s.newID, s.clock.Now())
		if !changed && !received {
			return ports.ErrUnchanged
		}
		return nil
	}, func(ctx context.Context, o *domain.Order) error {
		switch {
		case received:
			return s.publishOrder(ctx, api.EventOrderPaymentReceived, o)
		case changed:
			return s.publishOrder(ctx, api.EventOrderUpdated, o)
		}
		return nil
	})
	if isNotFound(err) {
		return nil
	}
	return err
}

// saleRecorded reports whether ev is a succeeded sale the order already recorded
// successfully (a re-delivered fact, or checkout's charge recorded at the create): one
// read instead of loading the order to find nothing to change.
func (s *Service) saleRecorded(ctx context.Context, orderKey string, ev domain.PaymentEvent) (bool, error) {
	if ev.Kind != domain.KindSale || ev.Failed || ev.PaymentID == "" {
		return false, nil
	}
	id, _, err := ParseKey(orderKey)
	if err != nil || id == "" {
		return false, nil // not an order id: the full path answers
	}
	return s.orders.HasTransaction(ctx, id, ev.PaymentID, domain.KindSale, domain.TxSuccess)
}

// PaymentFact is a payment event for RecordPayments: a fact to record on the order
// (RecordPayment), or with Sync a payment whose state is to be read (SyncPayment).
type PaymentFact struct {
	OrderKey string
	Event    domain.PaymentEvent
	Sync     bool
}

// RecordPayments records a relay batch of payment events (decision 0231): one read of
// the sales already recorded for their payments (checkout records its charge with the
// order, so its payment.created and payment.succeeded usually find it there), then
// every other fact as RecordPayment or SyncPayment does. A payment whose sale the
// order recorded has nothing left for a sync (it is neither to capture nor to void)
// nor for its success. It records what it can and answers the failures.
func (s *Service) RecordPayments(ctx context.Context, facts []PaymentFact) error {
	var ids []string
	for _, f := range facts {
		if skippable(f) && !slices.Contains(ids, f.Event.PaymentID) {
			ids = append(ids, f.Event.PaymentID)
		}
	}
	recorded, err := s.orders.SalesRecorded(ctx, ids)
	if err != nil {
		return err
	}
	var errs []error
	for _, f := range facts {
		if skippable(f) {
			if id, _, err := ParseKey(f.OrderKey); err == nil && slices.Contains(recorded[f.Event.PaymentID], id) {
				continue
			}
		}
		if f.Sync {
			err = s.SyncPayment(ctx, f.Event.PaymentID)
		} else {
			err = s.RecordPayment(ctx, f.OrderKey, f.Event)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// skippable: a fact that a successfully recorded sale of its payment covers.
func skippable(f PaymentFact) bool {
	return f.Event.PaymentID != "" && f.OrderKey != "" && (f.Sync || (f.Event.Kind == domain.KindSale && !f.Event.Failed))
}

// SyncPayment reads a payment's current state through the payments port and records
// it (payment.created: an authorization raises no other event).
func (s *Service) SyncPayment(ctx context.Context, paymentID string) error {
	orderID, ev, ok, err := s.paymentFact(ctx, paymentID)
	if !ok || err != nil {
		return err
	}
	return s.RecordPayment(ctx, orderID, ev)
}

// paymentFact reads a payment through the payments port: the order it names and the
// fact to record; false for an unknown payment or a state that records nothing.
func (s *Service) paymentFact(ctx context.Context, paymentID string) (string, domain.PaymentEvent, bool, error) {
	p, err := s.payments.Get(ctx, paymentID)
	if err != nil {
		if ae, ok := apperr.As(err); ok && ae.Kind == apperr.NotFound {
			return "", domain.PaymentEvent{}, false, nil
		}
		return "", domain.PaymentEvent{}, false, err
	}
	return factOf(p)
}

// factOf is the payment fact of a payment's state (false for a state that records
// nothing).
func factOf(p ports.Payment) (string, domain.PaymentEvent, bool, error) {
	var kind domain.TransactionKind
	switch p.Status {
	case ports.PaymentRequiresCapture:
		kind = domain.KindAuthorization
	case ports.PaymentSucceeded:
		kind = domain.KindSale
	case ports.PaymentCanceled:
		kind = domain.KindVoid
	default:
		return "", domain.PaymentEvent{}, false, nil
	}
	return p.OrderID, domain.PaymentEvent{PaymentID: p.ID, Kind: kind, Amount: p.Amount, Currency: p.Currency, Gateway: p.Gateway}, true, nil
}

// recordPaymentAtCreate records the payment named by a create command on the new
// order (a payment of another order, or in another currency, is not recorded): true
// when money was received. known, when it is that payment, is used instead of a read.
func (s *Service) recordPaymentAtCreate(ctx context.Context, o *domain.Order, paymentID string, known *api.KnownPayment) (bool, error) {
	if strings.TrimSpace(paymentID) == "" {
		return false, nil
	}
	var (
		orderID string
		ev      domain.PaymentEvent
		ok      bool
		err     error
	)
	if p := known; p != nil && p.ID == paymentID {
		// The caller has just recorded it in this transaction: not read again.
		amount := p.Amount
		if p.AmountCaptured.IsPositive() {
			amount = p.AmountCaptured
		}
		orderID, ev, ok, err = factOf(ports.Payment{ID: p.ID, Status: p.Status, Amount: amount, Currency: p.Currency, Gateway: p.Gateway, OrderID: p.OrderID})
	} else {
		orderID, ev, ok, err = s.paymentFact(ctx, paymentID)
	}
	if !ok || err != nil || orderID != o.ID || (ev.Currency != "" && !strings.EqualFold(ev.Currency, o.Currency)) {
		return false, err
	}
	_, received := o.RecordPayment(ev, s.newID, s.clock.Now())
	return received, nil
}

// RecordRefund applies a refund the payments module reports: one of the order's own
// pending refunds settling (then the refund finishes: restock, order.refund_created,
// order.updated), or a refund made outside the orders module (order.updated).
func (s *Service) RecordRefund(ctx context.Context, orderKey string, f domain.RefundFact) error {
	if orderKey == "" {
		id, err := s.orders.OrderIDForPayment(ctx, f.PaymentID)
		if err != nil {
			if isNotFound(err) {
				return nil
			}
			return err
		}
		orderKey = id
	}
	var (
		refundID          string
		changed, finished bool
	)
	_, err := s.change(ctx, orderKey, func(ctx context.Context, o *domain.Order) error {
		now := s.clock.Now()
		refundID, changed = o.RecordRefund(f, s.newID, now)
		if refundID == "" {
			return nil
		}
		finished = o.FinishRefund(refundID, now)
		if r := o.FindRefund(refundID); finished && r.Status == domain.RefundSuccess {
			return s.restock(ctx, o, o.RestockRefund(r))
		}
		return nil
	}, func(ctx context.Context, o *domain.Order) error {
		if r := o.FindRefund(refundID); finished && r != nil && r.Status == domain.RefundSuccess {
			return s.publishRefund(ctx, o, r)
		}
		if changed || finished {
			return s.publishOrder(ctx, api.EventOrderUpdated, o)
		}
		return nil
	})
	if isNotFound(err) {
		return nil
	}
	return err
}

// TransactionCommand records money on an order by hand: kind sale (an offline payment,
// gateway manual: "mark as paid"), or capture / void of an authorization (parent_id)
// through the payments port.
type TransactionCommand struct {
	Kind     string
	Amount   string // optional decimal string
	Gateway  string
	ParentID string
}

// CreateTransaction records a transaction (docs/decisions/0072).
func (s *Service) CreateTransaction(ctx context.Context, a Actor, key string, cmd TransactionCommand) (api.Transaction, error) {
	if err := a.write(); err != nil {
		return api.Transaction{}, err
	}
	switch cmd.Kind {
	case string(domain.KindSale):
		if g := strings.TrimSpace(cmd.Gateway); g != "" && g != domain.GatewayManual {
			return api.Transaction{}, apperr.Validation(map[string]string{"gateway": "must be manual: gateway payments go through /api/v1/payments"})
		}
		var t *domain.Transaction
		o, err := s.change(ctx, key, func(_ context.Context, o *domain.Order) error {
			amount, err := optionalAmount(cmd.Amount, o.Currency)
			if err != nil {
				return err
			}
			t, err = o.MarkAsPaid(amount, s.newID, s.clock.Now())
			return err
		}, func(ctx context.Context, o *domain.Order) error {
			return s.publishOrder(ctx, api.EventOrderPaymentReceived, o)
		})
		if err != nil {
			return api.Transaction{}, err
		}
		return ToTransaction(o, t), nil
	case string(domain.KindCapture), string(domain.KindVoid):
		return s.gatewayTransaction(ctx, key, cmd)
	default:
		return api.Transaction{}, apperr.Validation(map[string]string{"kind": "must be one of: sale, capture, void (refunds go through /refunds)"})
	}
}

func optionalAmount(s, currency string) (decimal.Decimal, error) {
	if strings.TrimSpace(s) == "" {
		return decimal.Zero, nil
	}
	return domain.ParseMoney(s, currency, "amount")
}

// gatewayTransaction captures or voids an authorization at its gateway (outside any
// transaction), then records the answer like the payment event would (idempotently).
func (s *Service) gatewayTransaction(ctx context.Context, key string, cmd TransactionCommand) (api.Transaction, error) {
	if strings.TrimSpace(cmd.ParentID) == "" {
		return api.Transaction{}, apperr.Validation(map[string]string{"parent_id": "is required: the authorization to " + cmd.Kind})
	}
	o, err := s.load(ctx, key)
	if err != nil {
		return api.Transaction{}, err
	}
	auth, err := o.OpenAuthorization(cmd.ParentID)
	if err != nil {
		return api.Transaction{}, err
	}
	var p ports.Payment
	kind := domain.KindSale
	if cmd.Kind == string(domain.KindVoid) {
		kind = domain.KindVoid
		p, err = s.payments.Void(ctx, auth.PaymentID)
	} else {
		amount, aerr := optionalAmount(cmd.Amount, o.Currency)
		if aerr != nil {
			return api.Transaction{}, aerr
		}
		if amount.GreaterThan(auth.Amount) {
			return api.Transaction{}, domain.ErrInvalidPrice.WithMessage("amount must be at most the authorized %s", domain.FormatMoney(auth.Amount, o.Currency)).
				WithField("amount", "must be at most the authorized amount")
		}
		p, err = s.payments.Capture(ctx, auth.PaymentID, amount)
	}
	if err != nil {
		return api.Transaction{}, err
	}
	if err := s.RecordPayment(ctx, o.ID, domain.PaymentEvent{PaymentID: auth.PaymentID, Kind: kind, Amount: p.Amount, Currency: o.Currency, Gateway: auth.Gateway}); err != nil {
		return api.Transaction{}, err
	}
	o, err = s.load(ctx, o.ID)
	if err != nil {
		return api.Transaction{}, err
	}
	want := domain.KindCapture
	if kind == domain.KindVoid {
		want = domain.KindVoid
	}
	for _, t := range o.Transactions {
		if t.ParentID == auth.ID && t.Kind == want && t.Status == domain.TxSuccess {
			return ToTransaction(o, t), nil
		}
	}
	return api.Transaction{}, domain.ErrInvalidStatusTransition.WithMessage("The gateway did not %s the authorization", cmd.Kind)
}
