package ports

import (
	"context"
	"errors"
	"time"

	"github.com/gocommerce/commerce/modules/payments/domain"
)

// ErrStale is returned by an optimistic update whose row changed meanwhile.
var ErrStale = errors.New("payments: stale version")

// ErrDuplicate is a unique-index violation the use case may retry (a second default).
var ErrDuplicate = errors.New("payments: duplicate")

// PaymentFilter selects payments for a list.
type PaymentFilter struct {
	CustomerID string
	OrderID    string
	Status     string
	Offset     int
	Limit      int
}

// PaymentRepository stores payments. Every method uses the transaction carried by ctx.
type PaymentRepository interface {
	Create(ctx context.Context, p *domain.Payment) error
	// Get returns a payment or domain.ErrPaymentNotFound; inside a transaction on
	// PostgreSQL the row is locked for update.
	Get(ctx context.Context, id string) (*domain.Payment, error)
	// FindByTransaction finds a payment by its gateway's transaction id.
	FindByTransaction(ctx context.Context, gateway, transactionID string) (*domain.Payment, error)
	// Update saves p when its version is unchanged (ErrStale otherwise) and bumps it.
	Update(ctx context.Context, p *domain.Payment) error
}

// RefundRepository stores refunds.
type RefundRepository interface {
	Create(ctx context.Context, r *domain.Refund) error
	Update(ctx context.Context, r *domain.Refund) error
	Get(ctx context.Context, id string) (*domain.Refund, error)
	ListByPayment(ctx context.Context, paymentID string) ([]*domain.Refund, error)
}

// SavedMethodRepository stores saved methods; at most one default per owner.
type SavedMethodRepository interface {
	Create(ctx context.Context, m *domain.SavedMethod) error
	// Get returns a saved method or domain.ErrPaymentMethodNotFound.
	Get(ctx context.Context, token string) (*domain.SavedMethod, error)
	// List returns the owner's methods, default first then newest first, and the total.
	List(ctx context.Context, owner string, offset, limit int) ([]*domain.SavedMethod, int64, error)
	Delete(ctx context.Context, token string) error
	// ClearDefault unsets the owner's default.
	ClearDefault(ctx context.Context, owner string) error
	// SetDefault makes token the default (call ClearDefault first).
	SetDefault(ctx context.Context, token string) error
	// Newest returns the owner's newest method, or nil.
	Newest(ctx context.Context, owner string) (*domain.SavedMethod, error)
	// Count counts the owner's methods.
	Count(ctx context.Context, owner string) (int64, error)
}

// IdempotencyRecord is one idempotency key's stored answer.
type IdempotencyRecord struct {
	Scope       string
	Key         string
	RequestHash string
	// PaymentID is what the request made: a payment (pay_…) or a refund (ref_…).
	PaymentID string
	CreatedAt time.Time
}

// IdempotencyRepository stores idempotency keys, unique per (scope, key).
type IdempotencyRepository interface {
	// Insert stores an in-progress record; a duplicate (scope, key) returns
	// created=false and stores nothing.
	Insert(ctx context.Context, r IdempotencyRecord) (created bool, err error)
	// Get returns the record or nil.
	Get(ctx context.Context, scope, key string) (*IdempotencyRecord, error)
}

// WebhookEventRecord is a provider event as received.
type WebhookEventRecord struct {
	ID              string
	Gateway         string
	ProviderEventID string
	Type            string
	Payload         []byte
	ReceivedAt      time.Time
}

// WebhookEventRepository stores provider events once per (gateway, provider event id).
type WebhookEventRepository interface {
	// Record inserts the event; a duplicate returns created=false.
	Record(ctx context.Context, e WebhookEventRecord) (created bool, err error)
}
