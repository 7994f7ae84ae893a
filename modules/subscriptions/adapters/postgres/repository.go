package postgres

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"

	"github.com/gocommerce/commerce/modules/subscriptions/domain"
	"github.com/gocommerce/commerce/modules/subscriptions/ports"
	"github.com/gocommerce/commerce/platform/db"
)

// Repository implements ports.Repository on the subscription tables.
type Repository struct {
	db *db.DB
}

var _ ports.Repository = (*Repository)(nil)

// NewRepository builds the repository.
func NewRepository(d *db.DB) *Repository { return &Repository{db: d} }

// Create inserts the subscription (version 1).
func (r *Repository) Create(ctx context.Context, s *domain.Subscription) error {
	s.Version = 1
	row := fromSubscription(s)
	return db.Insert(r.db.Conn(ctx), &row, nil, "subscriptions: insert")
}

// Get loads a subscription.
func (r *Repository) Get(ctx context.Context, id string) (*domain.Subscription, error) {
	row, err := db.First[subscriptionRow](r.db.Conn(ctx).Where("id = ?", id), domain.ErrSubscriptionNotFound, "subscriptions: select")
	if err != nil {
		return nil, err
	}
	s := row.toDomain()
	return &s, nil
}

// Update writes every mutable column when the version matches, then increments it.
func (r *Repository) Update(ctx context.Context, s *domain.Subscription) error {
	row := fromSubscription(s)
	row.Version = s.Version + 1
	res := r.db.Conn(ctx).Model(&subscriptionRow{}).Where("id = ? AND version = ?", s.ID, s.Version).Select("*").Omit("id", "created_at").Updates(&row)
	if err := db.One(res, domain.ErrStale, "subscriptions: update"); err != nil {
		return err
	}
	s.Version = row.Version
	return nil
}

// List returns a page of subscriptions, newest first.
func (r *Repository) List(ctx context.Context, f ports.Filter, offset, limit int) ([]domain.Subscription, int64, error) {
	q := r.db.Conn(ctx).Model(&subscriptionRow{})
	if f.CustomerID != "" {
		q = q.Where("customer_id = ?", f.CustomerID)
	}
	if f.Status != "" {
		q = q.Where("status = ?", f.Status)
	}
	rows, total, err := db.Page[subscriptionRow](q.Session(&gorm.Session{}), "created_at DESC, id DESC", offset, limit,
		"subscriptions: count", "subscriptions: list")
	return db.Map(rows, subscriptionRow.toDomain), total, err
}

// ListByCustomer returns every subscription of the customer, newest first.
func (r *Repository) ListByCustomer(ctx context.Context, customerID string) ([]domain.Subscription, error) {
	return db.FindAs(r.db.Conn(ctx).Where("customer_id = ?", customerID).Order("created_at DESC, id DESC"), subscriptionRow.toDomain,
		"subscriptions: select by customer")
}

// Due lists the subscriptions due at now.
func (r *Repository) Due(ctx context.Context, now time.Time, limit int) ([]string, error) {
	return r.pluck(r.db.Conn(ctx).Model(&subscriptionRow{}).Where("status IN ? AND next_billing_at <= ?",
		[]string{string(domain.StatusActive), string(domain.StatusTrialing)}, now.UTC()).Order("next_billing_at, id").Limit(limit),
		"subscriptions: due")
}

// GraceOver lists past_due subscriptions whose grace ended and whose open invoice has
// no retry pending.
func (r *Repository) GraceOver(ctx context.Context, now time.Time, limit int) ([]string, error) {
	conn := r.db.Conn(ctx)
	pending := conn.Model(&invoiceRow{}).Select("subscription_id").Where("status = ? AND next_retry_at IS NOT NULL", string(domain.InvoiceFailed))
	billed := conn.Model(&invoiceRow{}).Select("subscription_id").Where("status = ?", string(domain.InvoiceBilled))
	return r.pluck(conn.Model(&subscriptionRow{}).Where("status = ? AND grace_ends_at <= ? AND id NOT IN (?) AND id NOT IN (?)",
		string(domain.StatusPastDue), now.UTC(), pending, billed).Order("grace_ends_at, id").Limit(limit), "subscriptions: grace over")
}

func (r *Repository) pluck(q *gorm.DB, what string) ([]string, error) {
	var out []string
	if err := q.Pluck("id", &out).Error; err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return out, nil
}

// CreateInvoice stores the invoice unless its cycle has one.
func (r *Repository) CreateInvoice(ctx context.Context, inv *domain.Invoice) (bool, error) {
	row := fromInvoice(inv)
	return db.InsertNew(r.db.Conn(ctx), &row, "subscriptions: insert invoice")
}

func (r *Repository) invoice(q *gorm.DB) (*domain.Invoice, error) {
	row, err := db.First[invoiceRow](q, domain.ErrInvoiceNotFound, "subscriptions: select invoice")
	if err != nil {
		return nil, err
	}
	inv := row.toDomain()
	return &inv, nil
}

// GetInvoice loads an invoice.
func (r *Repository) GetInvoice(ctx context.Context, id string) (*domain.Invoice, error) {
	return r.invoice(r.db.Conn(ctx).Where("id = ?", id))
}

// InvoiceOfCycle loads the subscription's invoice of the cycle.
func (r *Repository) InvoiceOfCycle(ctx context.Context, subscriptionID string, cycle int) (*domain.Invoice, error) {
	return r.invoice(r.db.Conn(ctx).Where("subscription_id = ? AND cycle_number = ?", subscriptionID, cycle))
}

// InvoiceByPayment loads the invoice a payment paid or attempted.
func (r *Repository) InvoiceByPayment(ctx context.Context, paymentID string) (*domain.Invoice, error) {
	conn := r.db.Conn(ctx)
	inv, err := r.invoice(conn.Where("payment_id = ?", paymentID))
	if err == nil || paymentID == "" {
		return inv, err
	}
	ids, err := r.pluckCol(conn.Model(&attemptRow{}).Where("payment_id = ?", paymentID).Limit(1), "invoice_id", "subscriptions: attempt by payment")
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return nil, domain.ErrInvoiceNotFound
	}
	return r.GetInvoice(ctx, ids[0])
}

func (r *Repository) pluckCol(q *gorm.DB, col, what string) ([]string, error) {
	var out []string
	if err := q.Pluck(col, &out).Error; err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return out, nil
}

// Invoices lists the subscription's invoices, newest cycle first.
func (r *Repository) Invoices(ctx context.Context, subscriptionID string) ([]domain.Invoice, error) {
	return db.FindAs(r.db.Conn(ctx).Where("subscription_id = ?", subscriptionID).Order("cycle_number DESC"), invoiceRow.toDomain,
		"subscriptions: select invoices")
}

// OpenInvoice is the subscription's invoice in dunning.
func (r *Repository) OpenInvoice(ctx context.Context, subscriptionID string) (*domain.Invoice, error) {
	return r.invoice(r.db.Conn(ctx).Where("subscription_id = ? AND status IN ?", subscriptionID,
		[]string{string(domain.InvoiceFailed), string(domain.InvoiceBilled)}).Order("cycle_number DESC"))
}

// Claim moves a chargeable invoice to billed for the claim's token.
func (r *Repository) Claim(ctx context.Context, c ports.Claim) (bool, error) {
	now := c.Now.UTC()
	cond := "(status = ? OR (status = ? AND claimed_until < ?))"
	args := []any{string(domain.InvoicePending), string(domain.InvoiceBilled), now}
	switch {
	case c.Manual:
		cond += " OR status = ?"
		args = append(args, string(domain.InvoiceFailed))
	case c.Retry:
		cond += " OR (status = ? AND next_retry_at <= ?)"
		args = append(args, string(domain.InvoiceFailed), now)
	}
	res := r.db.Conn(ctx).Model(&invoiceRow{}).Where("id = ? AND ("+cond+")", append([]any{c.InvoiceID}, args...)...).Updates(map[string]any{
		"status": string(domain.InvoiceBilled), "claim_token": c.Token, "claimed_until": c.Until.UTC(), "updated_at": now,
	})
	n, err := db.Affected(res, "subscriptions: claim invoice")
	return n == 1, err
}

// Settle writes the invoice's outcome if it is still in one of from (and token's).
func (r *Repository) Settle(ctx context.Context, inv *domain.Invoice, from []domain.InvoiceStatus, token string) (bool, error) {
	states := make([]string, len(from))
	for i, f := range from {
		states[i] = string(f)
	}
	q := r.db.Conn(ctx).Model(&invoiceRow{}).Where("id = ? AND status IN ?", inv.ID, states)
	if token != "" {
		q = q.Where("claim_token = ?", token)
	}
	row := fromInvoice(inv)
	res := q.Select("*").Omit("id", "subscription_id", "customer_id", "order_ref", "cycle_number", "created_at").Updates(&row)
	n, err := db.Affected(res, "subscriptions: settle invoice")
	return n == 1, err
}

// SetInvoiceOrder records the invoice's order.
func (r *Repository) SetInvoiceOrder(ctx context.Context, invoiceID, orderID string) error {
	return db.Done(r.db.Conn(ctx).Model(&invoiceRow{}).Where("id = ?", invoiceID).Update("order_id", orderID), "subscriptions: invoice order")
}

// Pending lists the invoices to charge now (pending ones of paused subscriptions wait
// for the resume).
func (r *Repository) Pending(ctx context.Context, now time.Time, limit int) ([]string, error) {
	now = now.UTC()
	conn := r.db.Conn(ctx)
	paused := conn.Model(&subscriptionRow{}).Select("id").Where("status = ?", string(domain.StatusPaused))
	return r.pluck(conn.Model(&invoiceRow{}).Where("(status = ? AND subscription_id NOT IN (?)) OR (status = ? AND next_retry_at <= ?) OR (status = ? AND claimed_until < ?)",
		string(domain.InvoicePending), paused, string(domain.InvoiceFailed), now, string(domain.InvoiceBilled), now).
		Order("updated_at, id").Limit(limit), "subscriptions: pending invoices")
}

// PaidWithoutOrder lists paid invoices whose order is not made yet.
func (r *Repository) PaidWithoutOrder(ctx context.Context, limit int) ([]string, error) {
	return r.pluck(r.db.Conn(ctx).Model(&invoiceRow{}).Where("status = ? AND order_id = ''", string(domain.InvoicePaid)).
		Order("paid_at, id").Limit(limit), "subscriptions: invoices without order")
}

// DunningSince lists invoices whose dunning started at or after since.
func (r *Repository) DunningSince(ctx context.Context, since time.Time) ([]domain.Invoice, error) {
	return db.FindAs(r.db.Conn(ctx).Where("first_failed_at >= ?", since.UTC()).Order("first_failed_at"), invoiceRow.toDomain,
		"subscriptions: dunning invoices")
}

// Failed lists past_due subscriptions with their open invoice, newest failure first.
func (r *Repository) Failed(ctx context.Context, f ports.FailedFilter, offset, limit int) ([]ports.Failed, int64, error) {
	conn := r.db.Conn(ctx)
	past := conn.Model(&subscriptionRow{}).Select("id").Where("status = ?", string(domain.StatusPastDue))
	q := conn.Model(&invoiceRow{}).Where("status IN ? AND subscription_id IN (?)",
		[]string{string(domain.InvoiceFailed), string(domain.InvoiceBilled)}, past)
	switch f.Status {
	case "in_dunning":
		q = q.Where("(next_retry_at IS NOT NULL OR status = ?)", string(domain.InvoiceBilled))
	case "past_due":
		q = q.Where("next_retry_at IS NULL AND status = ?", string(domain.InvoiceFailed))
	}
	rows, total, err := db.Page[invoiceRow](q.Session(&gorm.Session{}), "first_failed_at DESC, id DESC", offset, limit,
		"subscriptions: count failed", "subscriptions: list failed")
	if err != nil {
		return nil, 0, err
	}
	out := make([]ports.Failed, 0, len(rows))
	for _, row := range rows {
		s, err := r.Get(ctx, row.SubscriptionID)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, ports.Failed{Subscription: *s, Invoice: row.toDomain()})
	}
	return out, total, nil
}

// AddAttempt records a charge attempt (once per invoice and number).
func (r *Repository) AddAttempt(ctx context.Context, a *domain.Attempt) error {
	row := attemptRow{ID: a.ID, InvoiceID: a.InvoiceID, SubscriptionID: a.SubscriptionID, AttemptNumber: a.Number,
		AttemptedAt: a.AttemptedAt.UTC(), Succeeded: a.Succeeded, ErrorCode: a.ErrorCode, ErrorMessage: a.ErrorMessage,
		PaymentID: a.PaymentID, Manual: a.Manual}
	_, err := db.InsertNew(r.db.Conn(ctx), &row, "subscriptions: insert attempt")
	return err
}

// Attempts lists the subscription's charge attempts, oldest first.
func (r *Repository) Attempts(ctx context.Context, subscriptionID string) ([]domain.Attempt, error) {
	return db.FindAs(r.db.Conn(ctx).Where("subscription_id = ?", subscriptionID).Order("attempted_at, attempt_number"), attemptRow.toDomain,
		"subscriptions: select attempts")
}

// AddEmail records a dunning email.
func (r *Repository) AddEmail(ctx context.Context, e *domain.Email) error {
	row := emailRow{ID: e.ID, SubscriptionID: e.SubscriptionID, InvoiceID: e.InvoiceID, EmailType: e.Type,
		NotificationID: e.NotificationID, SentAt: e.SentAt.UTC()}
	return db.Insert(r.db.Conn(ctx), &row, nil, "subscriptions: insert email")
}

// Emails lists the subscription's dunning emails, oldest first.
func (r *Repository) Emails(ctx context.Context, subscriptionID string) ([]domain.Email, error) {
	return db.FindAs(r.db.Conn(ctx).Where("subscription_id = ?", subscriptionID).Order("sent_at, id"), emailRow.toDomain,
		"subscriptions: select emails")
}
