package app

import (
	"context"
	"errors"
	"slices"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/checkout/api"
	"github.com/gocommerce/commerce/modules/checkout/domain"
	"github.com/gocommerce/commerce/platform/money"
)

// finish completes a paid checkout in ctx's transaction: the reservations become sold
// stock, the cart is converted (cart.converted) and checkout.completed confirms the
// order.
func (s *Service) finish(ctx context.Context, sess *domain.Session) error {
	committed, err := s.Inventory.Commit(ctx, sess.Reservations)
	if err != nil {
		return err
	}
	for _, id := range sess.Reservations {
		if !slices.Contains(committed, id) {
			// The hold lapsed just before a late payment: the paid order stands.
			s.log.Warn("paid checkout's reservation had lapsed", zap.String("order_id", sess.OrderID), zap.String("reservation_id", id))
		}
	}
	now := s.now()
	sess.Status, sess.Action, sess.HoldExpiresAt, sess.UpdatedAt = domain.StatusCompleted, nil, nil, now
	// The session's write goes out with the cart's conversion, which reads its row
	// back, and is checked then (one round trip less).
	if err := s.Sessions.SaveLater(ctx, sess, domain.ErrCheckoutBusy); err != nil {
		return err
	}
	if err := s.Carts.MarkConverted(ctx, sess.CartID, sess.OrderID); err != nil {
		return err
	}
	t, cur := sess.Totals, sess.Currency
	ev := api.CheckoutCompleted{
		CheckoutID: sess.ID, CartID: sess.CartID, OrderID: sess.OrderID, OrderNumber: sess.OrderNumber, Email: sess.Email, Currency: cur,
		Subtotal: money.Format(t.Subtotal, cur), DiscountTotal: money.Format(t.DiscountTotal(), cur), ShippingTotal: money.Format(t.ShippingTotal(), cur),
		TaxTotal: money.Format(t.TaxTotal(), cur), Total: money.Format(t.Total(), cur), PaymentID: sess.PaymentID, CouponCodes: []string{}, CompletedAt: now,
	}
	if sess.CustomerID != "" {
		ev.CustomerID = &sess.CustomerID
	}
	for _, u := range sess.Coupons {
		ev.CouponCodes = append(ev.CouponCodes, u.Code)
	}
	return s.events.Publish(ctx, api.EventCheckoutCompleted, sess.OrderID, ev)
}

// undo ends the cart's attempt for the order: its reservations go back to stock, its
// coupon uses are taken back, its order (if made) is cancelled, and the session is
// open again. It runs even when the request's context has ended.
func (s *Service) undo(ctx context.Context, cartID, orderID string, expired bool) {
	ctx = context.WithoutCancel(ctx)
	err := s.tx.InTx(ctx, func(ctx context.Context) error {
		cur, found, err := s.Sessions.Get(ctx, cartID)
		if err != nil || !found || cur.OrderID != orderID || cur.Status == domain.StatusCompleted {
			return err
		}
		if err := s.Inventory.ReleaseOrder(ctx, orderID, expired); err != nil {
			return err
		}
		for _, u := range cur.Coupons {
			if err := s.Coupons.Release(ctx, u, orderID); err != nil {
				return err
			}
		}
		if cur.OrderNumber != "" {
			if err := s.Orders.Cancel(ctx, orderID); err != nil {
				return err
			}
		}
		cur.Reset(s.now())
		return s.store(ctx, cur, true)
	})
	if err != nil {
		s.log.Error("checkout attempt not undone", zap.String("cart_id", cartID), zap.String("order_id", orderID), zap.Error(err))
	}
}

// void cancels (or refunds) a payment whose order could not be placed.
func (s *Service) void(ctx context.Context, paymentID string) {
	if paymentID == "" {
		return
	}
	if err := s.Payments.Void(context.WithoutCancel(ctx), paymentID); err != nil {
		s.log.Error("payment not voided", zap.String("payment_id", paymentID), zap.Error(err))
	}
}

// PaymentSettled reacts to a payment of a checkout awaiting it: paid completes the
// checkout; failed or canceled undoes the attempt (the order is cancelled, the stock
// and the coupon uses given back). Other payments are ignored.
func (s *Service) PaymentSettled(ctx context.Context, paymentID string, paid bool) error {
	sess, found, err := s.Sessions.ByPayment(ctx, paymentID)
	if err != nil || !found || sess.Status != domain.StatusAwaitingPayment {
		return err
	}
	return s.settle(ctx, sess, paid)
}

// Settlement is a payment's outcome as its event tells it.
type Settlement struct {
	PaymentID string
	Paid      bool
}

// PaymentsSettled is PaymentSettled for a relay batch of payment events, with one
// read of the sessions awaiting any of them (most payments complete in their request
// and have none): decision 0231. It settles every one it can and answers the first
// failure (the batch is retried; a settled session is not awaiting any more).
func (s *Service) PaymentsSettled(ctx context.Context, settled []Settlement) error {
	ids := make([]string, 0, len(settled))
	for _, st := range settled {
		if st.PaymentID != "" && !slices.Contains(ids, st.PaymentID) {
			ids = append(ids, st.PaymentID)
		}
	}
	awaiting, err := s.Sessions.AwaitingPayments(ctx, ids)
	if err != nil || len(awaiting) == 0 {
		return err
	}
	var first error
	for _, st := range settled {
		sess := awaiting[st.PaymentID]
		if sess == nil {
			continue
		}
		delete(awaiting, st.PaymentID) // the first event of a payment settles it
		if err := s.settle(ctx, sess, st.Paid); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// settle completes (paid) or undoes the attempt of a session awaiting its payment.
func (s *Service) settle(ctx context.Context, sess *domain.Session, paid bool) error {
	if !paid {
		s.undo(ctx, sess.CartID, sess.OrderID, false)
		return nil
	}
	err := s.tx.InTx(ctx, func(ctx context.Context) error { return s.finish(ctx, sess) })
	if errors.Is(err, domain.ErrCheckoutBusy) {
		return nil // finished by another delivery
	}
	return err
}

// stuckAfter is how long an attempt may stay processing before the sweep undoes it
// (far beyond any request's deadline: its process has gone).
const stuckAfter = 10 * time.Minute

// ExpireLapsed ends the checkouts whose payment did not complete before their stock
// hold lapsed: the payment is voided, the order cancelled, the stock and coupon uses
// given back (the periodic sweep). A payment found paid completes its checkout instead.
// An attempt left processing by a process that stopped is undone too.
func (s *Service) ExpireLapsed(ctx context.Context) (int, error) {
	now := s.now()
	lapsed, err := s.Sessions.Lapsed(ctx, now, now.Add(-stuckAfter), 100)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, sess := range lapsed {
		if sess.Status == domain.StatusProcessing {
			s.undo(ctx, sess.CartID, sess.OrderID, true)
			n++
			continue
		}
		if sess.PaymentID != "" {
			st, err := s.Payments.Status(ctx, sess.PaymentID)
			if err != nil {
				return n, err
			}
			if st == "succeeded" {
				if err := s.PaymentSettled(ctx, sess.PaymentID, true); err != nil {
					return n, err
				}
				continue
			}
			s.void(ctx, sess.PaymentID)
		}
		s.undo(ctx, sess.CartID, sess.OrderID, true)
		n++
	}
	return n, nil
}
