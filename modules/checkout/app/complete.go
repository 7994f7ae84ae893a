package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/checkout/domain"
	"github.com/gocommerce/commerce/modules/checkout/ports"
	"github.com/gocommerce/commerce/platform/apperr"
)

// CompleteInput completes the checkout of a cart.
type CompleteInput struct {
	Access         Access
	PaymentMethod  ports.PaymentMethod
	CustomerEmail  string
	ReturnURL      string
	IdempotencyKey string
	// ShippingAddress is used when the cart was not initiated.
	ShippingAddress *domain.Address
}

// Outcome is a complete's answer: the session, its order and the payment.
type Outcome struct {
	Session *domain.Session
	Order   ports.Order
	Payment ports.PaymentResult
}

// Complete turns the cart into an order (docs/decisions/0170). One attempt at a time
// holds the cart's session; the attempt reserves the stock and records the coupon uses
// in one transaction (nothing of it stays on failure), charges the payment outside
// any transaction, then creates the order, and with a paid payment commits the stock
// and converts the cart in a second transaction. A declined payment or any failure
// undoes the first transaction's work (and voids a charge). A payment that needs a 3D
// Secure or redirect action leaves the order pending until the payment completes or
// the hold lapses. A repeated complete (the same Idempotency-Key, or the same cart)
// answers the first one's order, also while it runs.
func (s *Service) Complete(ctx context.Context, in CompleteInput) (Outcome, error) {
	if err := checkComplete(&in); err != nil {
		return Outcome{}, err
	}
	c, err := s.Carts.Read(ctx, in.Access)
	if err != nil {
		return Outcome{}, err
	}
	if in.CustomerEmail == "" && c.CustomerID == "" && c.Email == "" {
		sess, found, err := s.Sessions.Get(ctx, c.ID)
		if err != nil {
			return Outcome{}, err
		}
		if !found || sess.Email == "" {
			return Outcome{}, apperr.Validation(map[string]string{"customer_email": "is required for a guest checkout"})
		}
	}
	key := in.IdempotencyKey
	if key != "" {
		if err := s.keyFailure(ctx, key, c.ID); err != nil {
			return Outcome{}, err
		}
	}
	deadline, waited := s.now().Add(s.settings.Wait), false
	for {
		sess, found, err := s.Sessions.Get(ctx, c.ID)
		if err != nil {
			return Outcome{}, err
		}
		if found {
			switch sess.Status {
			case domain.StatusCompleted, domain.StatusAwaitingPayment:
				return s.replay(ctx, sess)
			case domain.StatusProcessing:
				if err := s.pause(ctx, deadline); err != nil {
					return Outcome{}, err
				}
				waited = true
				if key != "" { // the key's own attempt may have failed meanwhile
					if err := s.keyFailure(ctx, key, c.ID); err != nil {
						return Outcome{}, err
					}
				}
				continue
			case domain.StatusOpen:
			}
		}
		if waited { // the cart may have changed meanwhile
			c, err = s.Carts.Read(ctx, in.Access)
		}
		if err == nil {
			err = checkActive(c)
		}
		if err != nil {
			return Outcome{}, err
		}
		if !found {
			if sess, err = s.create(ctx, c); err != nil {
				return Outcome{}, err
			}
		}
		out, err := s.attempt(ctx, in, c, sess, s.newID())
		if errors.Is(err, errNotClaimed) {
			continue // another attempt holds the session: wait for it, or replay it
		}
		if err != nil && key != "" {
			s.rememberFailure(ctx, key, err)
		}
		return out, err
	}
}

// errNotClaimed: the session was not open any more when the attempt claimed it.
var errNotClaimed = errors.New("checkout: session not claimed")

// create stores a new session for the cart and answers the stored one (a concurrent
// request's, when it stored one first).
func (s *Service) create(ctx context.Context, c ports.Cart) (*domain.Session, error) {
	if err := s.Sessions.Create(ctx, s.newSession(c)); err != nil {
		return nil, err
	}
	stored, _, err := s.Sessions.Get(ctx, c.ID)
	return stored, err
}

// keyFailure checks the key against its cart and replays its stored failure.
func (s *Service) keyFailure(ctx context.Context, key, cartID string) error {
	owner, f, err := s.Idempotency.Claim(ctx, key, cartID, s.now())
	if err != nil {
		return err
	}
	if owner != cartID {
		return domain.ErrIdempotencyKeyReused
	}
	if f != nil {
		e := apperr.New(apperr.Kind(f.Kind), f.Code, f.Message)
		for k, v := range f.Extra {
			e = e.WithExtra(k, v)
		}
		return e
	}
	return nil
}

func (s *Service) rememberFailure(ctx context.Context, key string, err error) {
	e, ok := apperr.As(err)
	if !ok || e.Kind == apperr.Internal || e.Kind == apperr.Unavailable || errors.Is(err, domain.ErrCheckoutBusy) {
		return // a transient failure: the key may try again
	}
	f := ports.Failure{Kind: int(e.Kind), Code: e.Code, Message: e.Message, Extra: e.Extra}
	if ferr := s.Idempotency.Fail(context.WithoutCancel(ctx), key, f); ferr != nil {
		s.log.Warn("idempotency failure not stored", zap.Error(ferr))
	}
}

func (s *Service) pause(ctx context.Context, deadline time.Time) error {
	if s.now().After(deadline) {
		return domain.ErrCheckoutBusy
	}
	t := time.NewTimer(20 * time.Millisecond)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return domain.ErrCheckoutBusy
	case <-t.C:
		return nil
	}
}

// replay answers a completed or pending session with its order.
func (s *Service) replay(ctx context.Context, sess *domain.Session) (Outcome, error) {
	o, err := s.Orders.Get(ctx, sess.OrderID)
	if err != nil {
		return Outcome{}, err
	}
	p := ports.PaymentResult{Outcome: ports.PaymentSucceeded, PaymentID: sess.PaymentID}
	if sess.Status == domain.StatusAwaitingPayment {
		p.Outcome, p.Action = ports.PaymentRequiresAction, sess.Action
	}
	return Outcome{Session: sess, Order: o, Payment: p}, nil
}

// attempt runs an attempt for the order id: errNotClaimed when another attempt holds
// the session; on any other failure the attempt's work is undone and the session is
// open again.
func (s *Service) attempt(ctx context.Context, in CompleteInput, c ports.Cart, sess *domain.Session, orderID string) (Outcome, error) {
	out, err := s.hold(ctx, in, c, sess, orderID)
	if errors.Is(err, errNotClaimed) {
		return Outcome{}, err
	}
	if err != nil {
		s.undo(ctx, sess.CartID, orderID, false)
		return Outcome{}, err
	}
	return out, nil
}

// hold prices the cart, then claims the session, reserves and records in one
// transaction (the claim first: a concurrent attempt waits on it), then charges and
// places the order.
func (s *Service) hold(ctx context.Context, in CompleteInput, c ports.Cart, sess *domain.Session, orderID string) (Outcome, error) {
	if in.CustomerEmail != "" {
		sess.Email = in.CustomerEmail
	}
	if sess.Email == "" {
		sess.Email = c.Email
	}
	sess.CustomerID = c.CustomerID
	if sess.ShippingAddress == nil && in.ShippingAddress != nil {
		sess.ShippingAddress = in.ShippingAddress
		if err := s.quote(ctx, c, sess); err != nil {
			return Outcome{}, err
		}
	}
	if sess.Rate == nil {
		sess.Rate = sess.Cheapest()
	}
	uses, err := s.price(ctx, in.Access, c, sess)
	if err != nil {
		return Outcome{}, err
	}
	lines := append([]domain.Line(nil), sess.Totals.Lines...)
	sort.Slice(lines, func(i, j int) bool { return lines[i].VariantID < lines[j].VariantID })
	// The stock and the coupon uses first, the claim of the session last: one
	// statement writes the attempt over the session read before, if it is still open
	// and unchanged. A concurrent attempt of the same cart waits on the same products'
	// locks, and then either finds the session claimed (it rolls back and replays the
	// first attempt) or, with the stock gone, fails: the session read again tells
	// which (docs/decisions/0186).
	open := *sess
	var (
		prep  ports.PreparedCharge
		facts map[string]ports.VariantFacts
	)
	err = s.tx.InTx(ctx, func(ctx context.Context) error {
		sess.Status, sess.OrderID = domain.StatusProcessing, orderID
		sess.Reservations, sess.Coupons, sess.HoldExpiresAt = nil, uses, nil
		var expires time.Time
		// The lines' variants are read once, here: the reservation and the order
		// are made from this read (docs/decisions/0229).
		var err error
		if facts, err = s.variantFacts(ctx, lines); err != nil {
			return err
		}
		holds := make([]ports.Hold, len(lines))
		for i, l := range lines {
			holds[i] = ports.Hold{ProductID: l.ProductID, VariantID: l.VariantID, OrderID: sess.OrderID, Quantity: l.Quantity, TTL: s.settings.HoldTTL}
			if f, ok := facts[l.VariantID]; ok && f.ProductID == l.ProductID {
				holds[i].Variant = &f
			}
		}
		rs, err := s.Inventory.Reserve(ctx, holds)
		if err != nil {
			return err
		}
		for _, r := range rs {
			sess.Reservations = append(sess.Reservations, r.ID)
			if expires.IsZero() || r.ExpiresAt.Before(expires) {
				expires = r.ExpiresAt
			}
		}
		if !expires.IsZero() {
			sess.HoldExpiresAt = &expires
		}
		for _, u := range uses {
			if err := s.Coupons.Record(ctx, u, sess.OrderID, c.CustomerID, c.Currency, sess.Totals.Total()); err != nil {
				return err
			}
		}
		// The payment is stored pending in this transaction too (a rollback leaves
		// none); the gateway is asked once it has committed. No payments idempotency
		// key: the claim makes this attempt the cart's only one, its order id is new,
		// and the gateway gets the payment's id as its key.
		if prep, err = s.Payments.Prepare(ctx, ports.Charge{
			Amount: sess.Totals.Total(), Currency: c.Currency, Method: in.PaymentMethod, OrderID: sess.OrderID, CustomerID: c.CustomerID,
			Email: sess.Email, ReturnURL: in.ReturnURL, Metadata: map[string]any{"checkout_id": sess.ID, "cart_id": c.ID},
		}); err != nil {
			return err
		}
		sess.PaymentID = prep.PaymentID
		sess.UpdatedAt = s.now()
		claimed, err := s.Sessions.Claim(ctx, sess)
		if err == nil && !claimed {
			err = errNotClaimed
		}
		return err
	})
	if err != nil {
		*sess = open
		if !errors.Is(err, errNotClaimed) && s.claimedByAnother(ctx, sess) {
			return Outcome{}, errNotClaimed
		}
		return Outcome{}, err
	}
	ans, err := s.Payments.Ask(ctx, prep)
	if err != nil {
		return Outcome{}, err
	}
	if ans.Declined {
		pay, err := s.Payments.Record(ctx, ans)
		if err == nil {
			err = paymentFailed(pay)
		}
		return Outcome{}, err
	}
	out, err := s.place(ctx, sess, ans, facts)
	if err != nil {
		// The answer was recorded in the order's transaction, which rolled back:
		// record it alone, then void the charge.
		if _, rerr := s.Payments.Record(context.WithoutCancel(ctx), ans); rerr != nil {
			s.log.Error("payment answer not recorded", zap.String("payment_id", ans.PaymentID), zap.Error(rerr))
		}
		s.void(ctx, ans.PaymentID)
		return Outcome{}, err
	}
	return out, nil
}

// variantFacts reads the lines' variants from the catalog in one read (nil without a
// catalog port: the reservation and the order then read them).
func (s *Service) variantFacts(ctx context.Context, lines []domain.Line) (map[string]ports.VariantFacts, error) {
	if s.Catalog == nil || len(lines) == 0 {
		return nil, nil
	}
	pids := make([]string, 0, len(lines))
	for _, l := range lines {
		if l.ProductID != "" && !slices.Contains(pids, l.ProductID) {
			pids = append(pids, l.ProductID)
		}
	}
	return s.Catalog.Variants(ctx, pids)
}

// claimedByAnother tells whether another attempt claimed the session since it was
// read (its reservation may be why this one failed).
func (s *Service) claimedByAnother(ctx context.Context, sess *domain.Session) bool {
	cur, found, err := s.Sessions.Get(context.WithoutCancel(ctx), sess.CartID)
	return err == nil && found && (cur.Status != domain.StatusOpen || cur.Version != sess.Version)
}

// place records the gateway's answer and creates the order in one transaction; a
// paid order completes the checkout, a pending one waits.
func (s *Service) place(ctx context.Context, sess *domain.Session, ans ports.ChargeAnswer, facts map[string]ports.VariantFacts) (Outcome, error) {
	var (
		o   ports.Order
		pay ports.PaymentResult
	)
	email := sess.Email
	err := s.tx.InTx(ctx, func(ctx context.Context) error {
		var err error
		if pay, err = s.Payments.Record(ctx, ans); err != nil {
			return err
		}
		if pay.Outcome == ports.PaymentFailed { // failed meanwhile (a provider's event)
			return paymentFailed(pay)
		}
		o, err = s.Orders.Create(ctx, ports.OrderDraft{
			ID: sess.OrderID, CustomerID: sess.CustomerID, Email: sess.Email, Currency: sess.Currency, CartID: sess.CartID, CheckoutID: sess.ID,
			Lines: sess.Totals.Lines, ShippingAddress: sess.ShippingAddress, BillingAddress: sess.BillingAddress, Shipping: sess.Rate,
			Totals: sess.Totals, Coupons: sess.Coupons, PaymentID: paidBy(pay), Payment: recordedBy(pay), Variants: facts,
		})
		if err != nil {
			return err
		}
		sess.OrderNumber = o.Number
		if sess.Email == "" {
			// A customer's cart carries no email: the checkout answers (and its
			// events carry) the one the order took from the customer.
			sess.Email = o.Email
		}
		if pay.Outcome == ports.PaymentRequiresAction {
			sess.Status, sess.Action = domain.StatusAwaitingPayment, pay.Action
			return s.store(ctx, sess, true)
		}
		return s.finish(ctx, sess)
	})
	if err != nil {
		sess.OrderNumber, sess.Email = "", email
		return Outcome{}, err
	}
	if pay.Outcome == ports.PaymentSucceeded && o.FinancialStatus != "paid" {
		// The order is created with its sale recorded; should it not have been (the
		// payment's state read differently), record it now.
		if err := s.Orders.SyncPayment(ctx, pay.PaymentID); err != nil {
			s.log.Warn("order payment not synced", zap.String("order_id", o.ID), zap.Error(err))
		} else {
			o.FinancialStatus = "paid"
		}
	}
	return Outcome{Session: sess, Order: o, Payment: pay}, nil
}

// paidBy is the payment id of a succeeded charge ("" otherwise): the order is created
// with the sale recorded.
func paidBy(p ports.PaymentResult) string {
	if p.Outcome == ports.PaymentSucceeded {
		return p.PaymentID
	}
	return ""
}

// recordedBy is a succeeded charge as just recorded (nil otherwise): the order
// records it without reading the payment again (docs/decisions/0229).
func recordedBy(p ports.PaymentResult) *ports.RecordedPayment {
	if p.Outcome == ports.PaymentSucceeded && p.Recorded != nil && p.Recorded.ID == p.PaymentID {
		return p.Recorded
	}
	return nil
}

// paymentFailed is a declined payment's error: the spec's payment code (402) with the
// provider's decline code.
func paymentFailed(p ports.PaymentResult) error {
	code := p.SpecCode
	if code == "" {
		code = "PROCESSING_ERROR"
	}
	msg := p.ErrorMessage
	if msg == "" {
		msg = "Payment failed"
	}
	return apperr.New(apperr.PaymentRequired, code, msg).WithExtra("payment_id", p.PaymentID).
		WithExtra("decline_code", p.ErrorCode).WithExtra("retry_allowed", p.RetryAllowed)
}

// Payment method types checkout accepts (the payments module's).
var methodTypes = map[string]bool{"card": true, "saved_card": true, "bank_transfer": true, "paypal": true, "alipay": true, "wechat_pay": true}

// checkComplete checks (and trims) the input before anything is read or written.
func checkComplete(in *CompleteInput) error {
	bad := map[string]string{}
	long := func(field, v string, n int) {
		if len(v) > n {
			bad[field] = fmt.Sprintf("must be at most %d characters", n)
		}
	}
	in.IdempotencyKey, in.CustomerEmail = strings.TrimSpace(in.IdempotencyKey), strings.TrimSpace(in.CustomerEmail)
	long("Idempotency-Key", in.IdempotencyKey, 255)
	if e := in.CustomerEmail; e != "" && (len(e) > 255 || !strings.Contains(e, "@") || strings.ContainsAny(e, " \t\r\n")) {
		bad["customer_email"] = "must be an email address"
	}
	long("return_url", in.ReturnURL, 2048)
	m := &in.PaymentMethod
	m.Type = strings.TrimSpace(m.Type)
	switch {
	case m.Type == "":
		bad["payment_method.type"] = "is required"
	case !methodTypes[m.Type]:
		bad["payment_method.type"] = "must be one of: card, saved_card, bank_transfer, paypal, alipay, wechat_pay"
	case m.Type == "card" && m.Card == nil && m.Token == "":
		bad["payment_method.card"] = "is required for a card (or payment_method.token)"
	}
	long("payment_method.token", m.Token, 255)
	long("payment_method.cvc", m.CVC, 4)
	long("payment_method.gateway_id", m.GatewayID, 50)
	if k := m.Card; k != nil {
		long("payment_method.card.number", k.Number, 23)
		long("payment_method.card.cvc", k.CVC, 4)
		long("payment_method.card.name", k.Name, 255)
	}
	if len(bad) > 0 {
		return apperr.Validation(bad)
	}
	if in.ShippingAddress != nil {
		return checkAddress(in.ShippingAddress, "shipping_address", true)
	}
	return nil
}
