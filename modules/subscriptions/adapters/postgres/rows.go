package postgres

import (
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/subscriptions/domain"
	"github.com/gocommerce/commerce/platform/db"
)

type subscriptionRow struct {
	ID                  string `gorm:"primaryKey"`
	CustomerID          string
	OrderID             string
	ProductID           string
	VariantID           string
	ProductName         string
	Status              string
	BillingInterval     string
	IntervalCount       int
	Currency            string
	Amount              decimal.Decimal
	SetupFee            decimal.Decimal
	TrialDays           int
	TrialEndsAt         *time.Time
	CurrentCycle        int
	MinCycles           int
	MaxCycles           *int
	StartsAt            time.Time
	NextBillingAt       *time.Time
	LastBillingAt       *time.Time
	EndsAt              *time.Time
	CancelledAt         *time.Time
	CancellationReason  string
	CancellationDetails string
	CancelAtEnd         bool
	PaymentMethodID     string
	Gateway             string
	Notes               string
	BillingAnchor       time.Time
	AnchorCycle         int
	PausedAt            *time.Time
	GraceEndsAt         *time.Time
	CreatedAt           time.Time
	UpdatedAt           time.Time
	Version             int
}

func (subscriptionRow) TableName() string { return "subscriptions" }

func utc(t time.Time) time.Time { return t.UTC() }

func fromSubscription(s *domain.Subscription) subscriptionRow {
	return subscriptionRow{
		ID: s.ID, CustomerID: s.CustomerID, OrderID: s.OrderID, ProductID: s.ProductID, VariantID: s.VariantID, ProductName: s.ProductName,
		Status: string(s.Status), BillingInterval: s.Interval, IntervalCount: s.IntervalCount, Currency: s.Currency, Amount: s.Amount,
		SetupFee: s.SetupFee, TrialDays: s.TrialDays, TrialEndsAt: db.UTCPtr(s.TrialEndsAt), CurrentCycle: s.CurrentCycle,
		MinCycles: s.MinCycles, MaxCycles: s.MaxCycles, StartsAt: utc(s.StartsAt), NextBillingAt: db.UTCPtr(s.NextBillingAt),
		LastBillingAt: db.UTCPtr(s.LastBillingAt), EndsAt: db.UTCPtr(s.EndsAt), CancelledAt: db.UTCPtr(s.CancelledAt),
		CancellationReason: s.CancellationReason, CancellationDetails: s.CancellationDetails, CancelAtEnd: s.CancelAtEnd,
		PaymentMethodID: s.PaymentMethodID, Gateway: s.Gateway, Notes: s.Notes, BillingAnchor: utc(s.BillingAnchor),
		AnchorCycle: s.AnchorCycle, PausedAt: db.UTCPtr(s.PausedAt), GraceEndsAt: db.UTCPtr(s.GraceEndsAt),
		CreatedAt: utc(s.CreatedAt), UpdatedAt: utc(s.UpdatedAt), Version: s.Version,
	}
}

func (r subscriptionRow) toDomain() domain.Subscription {
	return domain.Subscription{
		ID: r.ID, CustomerID: r.CustomerID, OrderID: r.OrderID, ProductID: r.ProductID, VariantID: r.VariantID, ProductName: r.ProductName,
		Status: domain.Status(r.Status), Interval: r.BillingInterval, IntervalCount: r.IntervalCount, Currency: r.Currency, Amount: r.Amount,
		SetupFee: r.SetupFee, TrialDays: r.TrialDays, TrialEndsAt: db.UTCPtr(r.TrialEndsAt), CurrentCycle: r.CurrentCycle,
		MinCycles: r.MinCycles, MaxCycles: r.MaxCycles, StartsAt: utc(r.StartsAt), NextBillingAt: db.UTCPtr(r.NextBillingAt),
		LastBillingAt: db.UTCPtr(r.LastBillingAt), EndsAt: db.UTCPtr(r.EndsAt), CancelledAt: db.UTCPtr(r.CancelledAt),
		CancellationReason: r.CancellationReason, CancellationDetails: r.CancellationDetails, CancelAtEnd: r.CancelAtEnd,
		PaymentMethodID: r.PaymentMethodID, Gateway: r.Gateway, Notes: r.Notes, BillingAnchor: utc(r.BillingAnchor),
		AnchorCycle: r.AnchorCycle, PausedAt: db.UTCPtr(r.PausedAt), GraceEndsAt: db.UTCPtr(r.GraceEndsAt),
		CreatedAt: utc(r.CreatedAt), UpdatedAt: utc(r.UpdatedAt), Version: r.Version,
	}
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
