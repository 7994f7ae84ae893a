package postgres

import (
	"time"

	"github.com/gocommerce/commerce/modules/subscriptions/domain"
	"github.com/gocommerce/commerce/platform/db"
)

// subscriptionRow is a subscription: its columns are the domain subscription's fields.
type subscriptionRow struct{ domain.Subscription }

func (subscriptionRow) TableName() string { return "subscriptions" }

func utc(t time.Time) time.Time { return t.UTC() }

func fromSubscription(s *domain.Subscription) subscriptionRow {
	return subscriptionRow{utcSubscription(*s)}
}

func (r subscriptionRow) toDomain() domain.Subscription { return utcSubscription(r.Subscription) }

// utcSubscription is s with its times in UTC.
func utcSubscription(s domain.Subscription) domain.Subscription {
	s.StartsAt, s.BillingAnchor, s.CreatedAt, s.UpdatedAt = utc(s.StartsAt), utc(s.BillingAnchor), utc(s.CreatedAt), utc(s.UpdatedAt)
	s.TrialEndsAt, s.NextBillingAt, s.LastBillingAt = db.UTCPtr(s.TrialEndsAt), db.UTCPtr(s.NextBillingAt), db.UTCPtr(s.LastBillingAt)
	s.EndsAt, s.CancelledAt, s.PausedAt, s.GraceEndsAt = db.UTCPtr(s.EndsAt), db.UTCPtr(s.CancelledAt), db.UTCPtr(s.PausedAt), db.UTCPtr(s.GraceEndsAt)
	return s
}

// invoiceRow is an invoice: its columns are the domain invoice's fields.
type invoiceRow struct{ domain.Invoice }

func (invoiceRow) TableName() string { return "subscription_invoices" }

func fromInvoice(i *domain.Invoice) invoiceRow { return invoiceRow{utcInvoice(*i)} }

func (r invoiceRow) toDomain() domain.Invoice { return utcInvoice(r.Invoice) }

// utcInvoice is i with its times in UTC.
func utcInvoice(i domain.Invoice) domain.Invoice {
	i.PeriodStart, i.PeriodEnd, i.CreatedAt, i.UpdatedAt = utc(i.PeriodStart), utc(i.PeriodEnd), utc(i.CreatedAt), utc(i.UpdatedAt)
	i.PaidAt, i.LastFailedAt, i.FirstFailedAt = db.UTCPtr(i.PaidAt), db.UTCPtr(i.LastFailedAt), db.UTCPtr(i.FirstFailedAt)
	i.NextRetryAt, i.LostAt, i.ClaimedUntil = db.UTCPtr(i.NextRetryAt), db.UTCPtr(i.LostAt), db.UTCPtr(i.ClaimedUntil)
	return i
}

type attemptRow struct {
	ID             string `gorm:"primaryKey"`
	InvoiceID      string
	SubscriptionID string
	AttemptNumber  int
	AttemptedAt    time.Time
	Succeeded      bool
	ErrorCode      string
	ErrorMessage   string
	PaymentID      string
	Manual         bool
}

func (attemptRow) TableName() string { return "subscription_attempts" }

func (r attemptRow) toDomain() domain.Attempt {
	return domain.Attempt{ID: r.ID, InvoiceID: r.InvoiceID, SubscriptionID: r.SubscriptionID, Number: r.AttemptNumber,
		AttemptedAt: utc(r.AttemptedAt), Succeeded: r.Succeeded, ErrorCode: r.ErrorCode, ErrorMessage: r.ErrorMessage,
		PaymentID: r.PaymentID, Manual: r.Manual}
}

type emailRow struct {
	ID             string `gorm:"primaryKey"`
	SubscriptionID string
	InvoiceID      string
	EmailType      string
	NotificationID string
	SentAt         time.Time
}

func (emailRow) TableName() string { return "subscription_dunning_emails" }

func (r emailRow) toDomain() domain.Email {
	return domain.Email{ID: r.ID, SubscriptionID: r.SubscriptionID, InvoiceID: r.InvoiceID, Type: r.EmailType,
		NotificationID: r.NotificationID, SentAt: utc(r.SentAt)}
}
