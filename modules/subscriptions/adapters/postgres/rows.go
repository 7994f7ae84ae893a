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

type invoiceRow struct {
	ID               string `gorm:"primaryKey"`
	SubscriptionID   string
	CustomerID       string
	OrderRef         string
	OrderID          string
	CycleNumber      int
	PeriodStart      time.Time
	PeriodEnd        time.Time
	Subtotal         decimal.Decimal
	TaxTotal         decimal.Decimal
	Total            decimal.Decimal
	Currency         string
	Status           string
	PaidAt           *time.Time
	PaymentID        string
	FailedAttempts   int
	LastFailedAt     *time.Time
	FirstFailedAt    *time.Time
	FailureReason    string
	NextRetryAt      *time.Time
	RetryCount       int
	RecoveredAttempt int
	LostAt           *time.Time
	ClaimToken       string
	ClaimedUntil     *time.Time
	CreatedAt        time.Time
	UpdatedAt        time.Time
}

func (invoiceRow) TableName() string { return "subscription_invoices" }

func fromInvoice(i *domain.Invoice) invoiceRow {
	return invoiceRow{
		ID: i.ID, SubscriptionID: i.SubscriptionID, CustomerID: i.CustomerID, OrderRef: i.OrderRef, OrderID: i.OrderID,
		CycleNumber: i.CycleNumber, PeriodStart: utc(i.PeriodStart), PeriodEnd: utc(i.PeriodEnd), Subtotal: i.Subtotal,
		TaxTotal: i.TaxTotal, Total: i.Total, Currency: i.Currency, Status: string(i.Status), PaidAt: db.UTCPtr(i.PaidAt),
		PaymentID: i.PaymentID, FailedAttempts: i.FailedAttempts, LastFailedAt: db.UTCPtr(i.LastFailedAt),
		FirstFailedAt: db.UTCPtr(i.FirstFailedAt), FailureReason: i.FailureReason, NextRetryAt: db.UTCPtr(i.NextRetryAt),
		RetryCount: i.RetryCount, RecoveredAttempt: i.RecoveredAttempt, LostAt: db.UTCPtr(i.LostAt), ClaimToken: i.ClaimToken,
		ClaimedUntil: db.UTCPtr(i.ClaimedUntil), CreatedAt: utc(i.CreatedAt), UpdatedAt: utc(i.UpdatedAt),
	}
}

func (r invoiceRow) toDomain() domain.Invoice {
	return domain.Invoice{
		ID: r.ID, SubscriptionID: r.SubscriptionID, CustomerID: r.CustomerID, OrderRef: r.OrderRef, OrderID: r.OrderID,
		CycleNumber: r.CycleNumber, PeriodStart: utc(r.PeriodStart), PeriodEnd: utc(r.PeriodEnd), Subtotal: r.Subtotal,
		TaxTotal: r.TaxTotal, Total: r.Total, Currency: r.Currency, Status: domain.InvoiceStatus(r.Status), PaidAt: db.UTCPtr(r.PaidAt),
		PaymentID: r.PaymentID, FailedAttempts: r.FailedAttempts, LastFailedAt: db.UTCPtr(r.LastFailedAt),
		FirstFailedAt: db.UTCPtr(r.FirstFailedAt), FailureReason: r.FailureReason, NextRetryAt: db.UTCPtr(r.NextRetryAt),
		RetryCount: r.RetryCount, RecoveredAttempt: r.RecoveredAttempt, LostAt: db.UTCPtr(r.LostAt), ClaimToken: r.ClaimToken,
		ClaimedUntil: db.UTCPtr(r.ClaimedUntil), CreatedAt: utc(r.CreatedAt), UpdatedAt: utc(r.UpdatedAt),
	}
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
