package postgres

import (
	"encoding/json"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/payments/domain"
	"github.com/gocommerce/commerce/platform/db"
)

type paymentRow struct {
	ID                string `gorm:"primaryKey"`
	Gateway           string
	TransactionID     string
	ProviderReference string
	Status            string
	Amount            decimal.Decimal
	AmountCaptured    decimal.Decimal
	AmountRefunded    decimal.Decimal
	Currency          string
	CaptureMethod     string
	CustomerID        string
	CustomerEmail     string
	OrderID           string
	Owner             string
	Description       string
	Metadata          *string
	MethodType        string
	Card              cardColumns `gorm:"embedded"`
	ProviderMethod    string
	ProviderCustomer  string
	SavedMethodToken  string
	SaveRequested     bool
	ReturnURL         string
	ActionType        string
	ActionData        *string
	ActionExpiresAt   *time.Time
	ErrorCode         string
	ErrorMessage      string
	RetryAllowed      bool
	ReceiptURL        string
	CreatedAt         time.Time
	UpdatedAt         time.Time
	CompletedAt       *time.Time
	CapturedAt        *time.Time
	CanceledAt        *time.Time
	Version           int
}

func (paymentRow) TableName() string { return "payments_payments" }

func jsonText(v any) *string {
	if v == nil {
		return nil
	}
	switch m := v.(type) {
	case map[string]any:
		if m == nil {
			return nil
		}
	}
	raw, err := json.Marshal(v)
	if err != nil || string(raw) == "null" {
		return nil
	}
	s := string(raw)
	return &s
}

func fromJSON(s *string) map[string]any {
	if s == nil || *s == "" {
		return nil
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(*s), &m); err != nil {
		return nil
	}
	return m
}

func paymentFromDomain(p *domain.Payment) paymentRow {
	r := paymentRow{
		ID: p.ID, Gateway: p.Gateway, TransactionID: p.TransactionID, ProviderReference: p.ProviderReference,
		Status: string(p.Status), Amount: p.Amount, AmountCaptured: p.AmountCaptured, AmountRefunded: p.AmountRefunded,
		Currency: string(p.Currency), CaptureMethod: p.CaptureMethod, CustomerID: p.CustomerID, CustomerEmail: p.CustomerEmail,
		OrderID: p.OrderID, Owner: p.Owner, Description: p.Description, Metadata: jsonText(p.Metadata),
		MethodType: p.MethodType, Card: cardOf(p.Card),
		ProviderMethod: p.ProviderMethod, ProviderCustomer: p.ProviderCustomer,
		SavedMethodToken: p.SavedMethodToken, SaveRequested: p.SaveRequested, ReturnURL: p.ReturnURL,
		ErrorCode: p.ErrorCode, ErrorMessage: p.ErrorMessage, RetryAllowed: p.RetryAllowed, ReceiptURL: p.ReceiptURL,
		CreatedAt: p.CreatedAt.UTC(), UpdatedAt: p.UpdatedAt.UTC(), CompletedAt: db.UTCPtr(p.CompletedAt),
		CapturedAt: db.UTCPtr(p.CapturedAt), CanceledAt: db.UTCPtr(p.CanceledAt), Version: p.Version,
	}
	if p.Action != nil {
		r.ActionType = p.Action.Type
		r.ActionData = jsonText(p.Action.Data)
		r.ActionExpiresAt = db.UTCPtr(&p.Action.ExpiresAt)
	}
	return r
}

func (r paymentRow) toDomain() *domain.Payment {
	p := &domain.Payment{
		ID: r.ID, Gateway: r.Gateway, TransactionID: r.TransactionID, ProviderReference: r.ProviderReference,
		Status: domain.Status(r.Status), Amount: r.Amount, AmountCaptured: r.AmountCaptured, AmountRefunded: r.AmountRefunded,
		Currency: domain.Currency(r.Currency), CaptureMethod: r.CaptureMethod, CustomerID: r.CustomerID, CustomerEmail: r.CustomerEmail,
		OrderID: r.OrderID, Owner: r.Owner, Description: r.Description, Metadata: fromJSON(r.Metadata), MethodType: r.MethodType,
		Card:           r.Card.toDomain(),
		ProviderMethod: r.ProviderMethod, ProviderCustomer: r.ProviderCustomer, SavedMethodToken: r.SavedMethodToken,
		SaveRequested: r.SaveRequested, ReturnURL: r.ReturnURL, ErrorCode: r.ErrorCode, ErrorMessage: r.ErrorMessage,
		RetryAllowed: r.RetryAllowed, ReceiptURL: r.ReceiptURL, CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(),
		CompletedAt: db.UTCPtr(r.CompletedAt), CapturedAt: db.UTCPtr(r.CapturedAt), CanceledAt: db.UTCPtr(r.CanceledAt), Version: r.Version,
	}
	if r.ActionType != "" {
		a := domain.Action{Type: r.ActionType, Data: fromJSON(r.ActionData)}
		if r.ActionExpiresAt != nil {
			a.ExpiresAt = r.ActionExpiresAt.UTC()
		}
		p.Action = &a
	}
	return p
}

type refundRow struct {
	ID               string `gorm:"primaryKey"`
	PaymentID        string
	Amount           decimal.Decimal
	Currency         string
	Status           string
	Reason           string
	Metadata         *string
	ProviderRefundID string
	FailureReason    string
	CreatedAt        time.Time
	UpdatedAt        time.Time
}

func (refundRow) TableName() string { return "payments_refunds" }

func refundFromDomain(r *domain.Refund) refundRow {
	return refundRow{
		ID: r.ID, PaymentID: r.PaymentID, Amount: r.Amount, Currency: string(r.Currency), Status: string(r.Status),
		Reason: r.Reason, Metadata: jsonText(r.Metadata), ProviderRefundID: r.ProviderRefundID, FailureReason: r.FailureReason,
		CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(),
	}
}

func (r refundRow) toDomain() *domain.Refund {
	return &domain.Refund{
		ID: r.ID, PaymentID: r.PaymentID, Amount: r.Amount, Currency: domain.Currency(r.Currency), Status: domain.RefundStatus(r.Status),
		Reason: r.Reason, Metadata: fromJSON(r.Metadata), ProviderRefundID: r.ProviderRefundID, FailureReason: r.FailureReason,
		CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(),
	}
}

type savedMethodRow struct {
	Token            string `gorm:"primaryKey"`
	Owner            string
	Gateway          string
	ProviderToken    string
	ProviderCustomer string
	MethodType       string
	Card             cardColumns `gorm:"embedded"`
	IsDefault        bool
	ExpiresAt        *time.Time
	CreatedAt        time.Time
}

func (savedMethodRow) TableName() string { return "payments_saved_methods" }

func savedMethodFromDomain(m *domain.SavedMethod) savedMethodRow {
	return savedMethodRow{
		Token: m.Token, Owner: m.Owner, Gateway: m.Gateway, ProviderToken: m.ProviderToken, ProviderCustomer: m.ProviderCustomer,
		MethodType: m.MethodType, Card: cardOf(m.Card),
		IsDefault: m.IsDefault, ExpiresAt: db.UTCPtr(m.ExpiresAt),
		CreatedAt: m.CreatedAt.UTC(),
	}
}

func (r savedMethodRow) toDomain() *domain.SavedMethod {
	return &domain.SavedMethod{
		Token: r.Token, Owner: r.Owner, Gateway: r.Gateway, ProviderToken: r.ProviderToken, ProviderCustomer: r.ProviderCustomer,
		MethodType: r.MethodType,
		Card:       r.Card.toDomain(),
		IsDefault:  r.IsDefault, ExpiresAt: db.UTCPtr(r.ExpiresAt), CreatedAt: r.CreatedAt.UTC(),
	}
}

type idempotencyRow struct {
	Scope       string `gorm:"primaryKey"`
	IdemKey     string `gorm:"primaryKey"`
	RequestHash string
	PaymentID   string
	CreatedAt   time.Time
}

func (idempotencyRow) TableName() string { return "payments_idempotency_keys" }

type webhookEventRow struct {
	ID              string `gorm:"primaryKey"`
	Gateway         string
	ProviderEventID string
	Type            string
	Payload         string
	ReceivedAt      time.Time
}

func (webhookEventRow) TableName() string { return "payments_webhook_events" }

// cardColumns are a card's description columns, of a payment and of a saved method.
type cardColumns struct {
	CardBrand      string
	LastFour       string
	ExpMonth       int
	ExpYear        int
	CardholderName string
}

func cardOf(c domain.CardDetails) cardColumns {
	return cardColumns{CardBrand: c.Brand, LastFour: c.LastFour, ExpMonth: c.ExpMonth, ExpYear: c.ExpYear, CardholderName: c.Name}
}

func (c cardColumns) toDomain() domain.CardDetails {
	return domain.CardDetails{Brand: c.CardBrand, LastFour: c.LastFour, ExpMonth: c.ExpMonth, ExpYear: c.ExpYear, Name: c.CardholderName}
}
