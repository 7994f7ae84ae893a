package http

import (
	"time"

	"github.com/gocommerce/commerce/modules/subscriptions/api"
	"github.com/gocommerce/commerce/modules/subscriptions/app"
	"github.com/gocommerce/commerce/modules/subscriptions/domain"
	"github.com/gocommerce/commerce/platform/money"
)

type subscriptionJSON = api.Subscription

type invoiceJSON api.Invoice

func resource(s *domain.Subscription) subscriptionJSON { return app.ToResource(s) }

type pagination struct {
	Page       int   `json:"page"`
	PerPage    int   `json:"per_page"`
	Total      int64 `json:"total"`
	TotalPages int   `json:"total_pages"`
}

type listResponse struct {
	Subscriptions []subscriptionJSON `json:"subscriptions"`
	Pagination    pagination         `json:"pagination"`
}

type successResponse struct {
	Success      bool             `json:"success"`
	Subscription subscriptionJSON `json:"subscription"`
}

type getResponse struct {
	Subscription subscriptionJSON `json:"subscription"`
}

type cancelledJSON struct {
	ID                 string     `json:"id"`
	Status             string     `json:"status"`
	CancelledAt        *time.Time `json:"cancelled_at"`
	CancellationReason *string    `json:"cancellation_reason"`
	UpdatedAt          time.Time  `json:"updated_at"`
}

type cancelResponse struct {
	Success      bool          `json:"success"`
	Message      string        `json:"message"`
	Subscription cancelledJSON `json:"subscription"`
}

type pausedJSON struct {
	ID        string    `json:"id"`
	Status    string    `json:"status"`
	UpdatedAt time.Time `json:"updated_at"`
}

type pauseResponse struct {
	Success      bool       `json:"success"`
	Message      string     `json:"message"`
	Subscription pausedJSON `json:"subscription"`
}

type resumedJSON struct {
	ID            string     `json:"id"`
	Status        string     `json:"status"`
	NextBillingAt *time.Time `json:"next_billing_at"`
	UpdatedAt     time.Time  `json:"updated_at"`
}

type resumeResponse struct {
	Success      bool        `json:"success"`
	Message      string      `json:"message"`
	Subscription resumedJSON `json:"subscription"`
}

type invoicesResponse struct {
	Invoices []invoiceJSON `json:"invoices"`
}

type customerJSON struct {
	ID    string `json:"id"`
	Email string `json:"email"`
	Name  string `json:"name"`
}

type failedJSON struct {
	SubscriptionID string       `json:"subscription_id"`
	Customer       customerJSON `json:"customer"`
	ProductName    string       `json:"product_name"`
	Amount         string       `json:"amount"`
	Currency       string       `json:"currency"`
	FailedAttempts int          `json:"failed_attempts"`
	MaxAttempts    int          `json:"max_attempts"`
	NextRetryAt    *time.Time   `json:"next_retry_at"`
	Status         string       `json:"status"`
	FirstFailedAt  *time.Time   `json:"first_failed_at"`
}

func toFailed(r app.FailedPayment) failedJSON {
	return failedJSON{
		SubscriptionID: r.Subscription.ID, Customer: customerJSON{ID: r.Customer.ID, Email: r.Customer.Email, Name: r.Customer.Name},
		ProductName: r.Subscription.ProductName, Amount: money.Format(r.Invoice.Total, r.Invoice.Currency), Currency: r.Invoice.Currency,
		FailedAttempts: r.Invoice.FailedAttempts, MaxAttempts: r.MaxAttempts, NextRetryAt: r.Invoice.NextRetryAt, Status: r.Status,
		FirstFailedAt: r.Invoice.FirstFailedAt,
	}
}

type failedMeta struct {
	Total   int64 `json:"total"`
	Page    int   `json:"page"`
	PerPage int   `json:"per_page"`
}

type failedResponse struct {
	Data []failedJSON `json:"data"`
	Meta failedMeta   `json:"meta"`
}

type attemptRecoveriesJSON struct {
	Attempt    int     `json:"attempt"`
	Recoveries int     `json:"recoveries"`
	Rate       float64 `json:"rate"`
}

type metricsJSON struct {
	Period                   string                  `json:"period"`
	TotalFailures            int                     `json:"total_failures"`
	TotalRecoveries          int                     `json:"total_recoveries"`
	RecoveryRate             float64                 `json:"recovery_rate"`
	RecoveredRevenue         string                  `json:"recovered_revenue"`
	LostRevenue              string                  `json:"lost_revenue"`
	RecoveryByAttempt        []attemptRecoveriesJSON `json:"recovery_by_attempt"`
	AverageRecoveryTimeHours float64                 `json:"average_recovery_time_hours"`
}

func toMetrics(m app.Metrics) metricsJSON {
	out := metricsJSON{Period: m.Period, TotalFailures: m.TotalFailures, TotalRecoveries: m.TotalRecoveries, RecoveryRate: m.RecoveryRate,
		RecoveredRevenue: m.RecoveredRevenue.StringFixed(2), LostRevenue: m.LostRevenue.StringFixed(2),
		RecoveryByAttempt: make([]attemptRecoveriesJSON, len(m.RecoveryByAttempt)), AverageRecoveryTimeHours: m.AverageRecoveryTimeHours}
	for i, a := range m.RecoveryByAttempt {
		out.RecoveryByAttempt[i] = attemptRecoveriesJSON(a)
	}
	return out
}

type attemptJSON struct {
	AttemptNumber int       `json:"attempt_number"`
	AttemptedAt   time.Time `json:"attempted_at"`
	Succeeded     bool      `json:"succeeded"`
	ErrorMessage  *string   `json:"error_message"`
	ErrorCode     *string   `json:"error_code"`
	PaymentID     *string   `json:"payment_id"`
}

type emailJSON struct {
	Type      string     `json:"type"`
	SentAt    time.Time  `json:"sent_at"`
	OpenedAt  *time.Time `json:"opened_at"`
	ClickedAt *time.Time `json:"clicked_at"`
}

type historyJSON struct {
	SubscriptionID string        `json:"subscription_id"`
	Status         string        `json:"status"`
	RetryAttempts  []attemptJSON `json:"retry_attempts"`
	EmailsSent     []emailJSON   `json:"emails_sent"`
}

func opt(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func toHistory(h app.History) historyJSON {
	out := historyJSON{SubscriptionID: h.Subscription.ID, Status: string(h.Subscription.Status),
		RetryAttempts: make([]attemptJSON, len(h.Attempts)), EmailsSent: make([]emailJSON, len(h.Emails))}
	for i, a := range h.Attempts {
		out.RetryAttempts[i] = attemptJSON{AttemptNumber: a.Number, AttemptedAt: a.AttemptedAt, Succeeded: a.Succeeded,
			ErrorMessage: opt(a.ErrorMessage), ErrorCode: opt(a.ErrorCode), PaymentID: opt(a.PaymentID)}
	}
	for i, e := range h.Emails {
		out.EmailsSent[i] = emailJSON{Type: e.Type, SentAt: e.SentAt}
	}
	return out
}

type retryResponse struct {
	Success   bool   `json:"success"`
	Message   string `json:"message"`
	PaymentID string `json:"payment_id"`
	Status    string `json:"status"`
}

type extendResponse struct {
	Success           bool      `json:"success"`
	Message           string    `json:"message"`
	NewGracePeriodEnd time.Time `json:"new_grace_period_end"`
}
