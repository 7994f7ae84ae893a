// Package postgres stores payments, refunds, saved methods, idempotency keys and
// provider events with gorm (PostgreSQL, and SQLite through the same code) and embeds
// the module's migrations.
package postgres

import (
	"context"
	"embed"
	"fmt"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/gocommerce/commerce/modules/payments/domain"
	"github.com/gocommerce/commerce/modules/payments/ports"
	"github.com/gocommerce/commerce/platform/db"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Migrations returns the payments tables' migrations (versions 2026112250..).
func Migrations() db.MigrationSource { return db.Embedded("payments", migrations) }

// The repositories, each holding the database handle it takes connections from
// (db.Conn); their methods follow.
type (
	// PaymentRepository implements ports.PaymentRepository; its hot writes (a
	// checkout's insert and update) are plain SQL.
	PaymentRepository struct {
		db       *db.DB
		payments *db.Table[paymentRow]
		update   *db.Update[paymentRow] // every column but created_at, version-guarded
	}
	// RefundRepository implements ports.RefundRepository.
	RefundRepository struct{ db *db.DB }
	// SavedMethodRepository implements ports.SavedMethodRepository.
	SavedMethodRepository struct{ db *db.DB }
	// IdempotencyRepository implements ports.IdempotencyRepository.
	IdempotencyRepository struct{ db *db.DB }
	// WebhookEventRepository implements ports.WebhookEventRepository.
	WebhookEventRepository struct{ db *db.DB }
)

var (
	_ ports.PaymentRepository      = (*PaymentRepository)(nil)
	_ ports.RefundRepository       = (*RefundRepository)(nil)
	_ ports.SavedMethodRepository  = (*SavedMethodRepository)(nil)
	_ ports.IdempotencyRepository  = (*IdempotencyRepository)(nil)
	_ ports.WebhookEventRepository = (*WebhookEventRepository)(nil)
)

// NewPaymentRepository builds the repository.
func NewPaymentRepository(d *db.DB) *PaymentRepository {
	payments := db.NewTable[paymentRow](d)
	return &PaymentRepository{db: d, payments: payments, update: payments.Update([]string{"created_at"}, "id = ? AND version = ?")}
}

// NewRefundRepository builds the repository.
func NewRefundRepository(d *db.DB) *RefundRepository { return &RefundRepository{db: d} }

// NewSavedMethodRepository builds the repository.
func NewSavedMethodRepository(d *db.DB) *SavedMethodRepository { return &SavedMethodRepository{db: d} }

// NewIdempotencyRepository builds the repository.
func NewIdempotencyRepository(d *db.DB) *IdempotencyRepository { return &IdempotencyRepository{db: d} }

// NewWebhookEventRepository builds the repository.
func NewWebhookEventRepository(d *db.DB) *WebhookEventRepository {
	return &WebhookEventRepository{db: d}
}

// Create inserts a payment.
func (r *PaymentRepository) Create(ctx context.Context, p *domain.Payment) error {
	if p.Version == 0 {
		p.Version = 1
	}
	// Queued in a transaction: it goes out with the next statement (decision 0240).
	if err := r.payments.Insert(db.Later(ctx), []paymentRow{paymentFromDomain(p)}); err != nil {
		return fmt.Errorf("payments: %w", err)
	}
	return nil
}

// Get loads a payment (row-locked inside a PostgreSQL transaction).
func (r *PaymentRepository) Get(ctx context.Context, id string) (*domain.Payment, error) {
	q := r.db.Conn(ctx)
	if db.InTransaction(ctx) && r.db.Dialect() == db.Postgres {
		q = q.Clauses(clause.Locking{Strength: "UPDATE"})
	}
	return db.FirstAs(q.Where("id = ?", id), paymentRow.toDomain, domain.ErrPaymentNotFound, "payments: select payment")
}

// FindByTransaction loads a payment by its gateway's transaction id.
func (r *PaymentRepository) FindByTransaction(ctx context.Context, gateway, transactionID string) (*domain.Payment, error) {
	q := r.db.Conn(ctx).Where("gateway = ? AND transaction_id = ?", gateway, transactionID)
	row, err := db.First[paymentRow](q, domain.ErrPaymentNotFound, "payments: select payment")
	if err != nil {
		return nil, err
	}
	return r.Get(ctx, row.ID)
}

// Update saves every column when the version is unchanged, and bumps the version.
func (r *PaymentRepository) Update(ctx context.Context, p *domain.Payment) error {
	row := paymentFromDomain(p)
	row.Version = p.Version + 1
	n, err := r.update.Exec(ctx, &row, p.ID, p.Version)
	if err != nil {
		return fmt.Errorf("payments: %w", err)
	}
	if n != 1 {
		return ports.ErrStale
	}
	p.Version = row.Version
	return nil
}

// Create inserts a refund.
func (r *RefundRepository) Create(ctx context.Context, ref *domain.Refund) error {
	row := refundFromDomain(ref)
	return db.Insert(r.db.Conn(ctx), &row, nil, "payments: insert refund")
}

// Update saves a refund.
func (r *RefundRepository) Update(ctx context.Context, ref *domain.Refund) error {
	row := refundFromDomain(ref)
	return db.Done(r.db.Conn(ctx).Model(&refundRow{}).Where("id = ?", ref.ID).Select("*").Omit("id", "created_at").Updates(&row), "payments: update refund")
}

// Get loads a refund.
func (r *RefundRepository) Get(ctx context.Context, id string) (*domain.Refund, error) {
	return db.FirstAs(r.db.Conn(ctx).Where("id = ?", id), refundRow.toDomain, domain.ErrPaymentNotFound.WithMessage("Refund not found"), "payments: select refund")
}

// ListByPayment lists a payment's refunds, oldest first.
func (r *RefundRepository) ListByPayment(ctx context.Context, paymentID string) ([]*domain.Refund, error) {
	return db.FindAs(r.db.Conn(ctx).Where("payment_id = ?", paymentID).Order("created_at, id"), refundRow.toDomain, "payments: select refunds")
}

// Create inserts a saved method; a second default of the owner is ports.ErrDuplicate.
func (r *SavedMethodRepository) Create(ctx context.Context, m *domain.SavedMethod) error {
	row := savedMethodFromDomain(m)
	return db.Insert(r.db.Conn(ctx), &row, ports.ErrDuplicate, "payments: insert saved method")
}

// Get loads a saved method.
func (r *SavedMethodRepository) Get(ctx context.Context, token string) (*domain.SavedMethod, error) {
	return db.FirstAs(r.db.Conn(ctx).Where("token = ?", token), savedMethodRow.toDomain, domain.ErrPaymentMethodNotFound, "payments: select saved method")
}

// List returns the owner's methods, default first, then newest first.
func (r *SavedMethodRepository) List(ctx context.Context, owner string, offset, limit int) ([]*domain.SavedMethod, int64, error) {
	q := r.db.Conn(ctx).Model(&savedMethodRow{}).Where("owner = ?", owner).Session(&gorm.Session{})
	rows, total, err := db.Page[savedMethodRow](q, "is_default DESC, created_at DESC, token DESC", offset, limit,
		"payments: count saved methods", "payments: select saved methods")
	return db.Map(rows, savedMethodRow.toDomain), total, err
}

// Delete removes a saved method.
func (r *SavedMethodRepository) Delete(ctx context.Context, token string) error {
	return db.Done(r.db.Conn(ctx).Where("token = ?", token).Delete(&savedMethodRow{}), "payments: delete saved method")
}

// ClearDefault unsets the owner's default.
func (r *SavedMethodRepository) ClearDefault(ctx context.Context, owner string) error {
	return db.Done(r.db.Conn(ctx).Model(&savedMethodRow{}).Where("owner = ? AND is_default = ?", owner, true).
		Update("is_default", false), "payments: clear default")
}

// SetDefault marks a method as its owner's default.
func (r *SavedMethodRepository) SetDefault(ctx context.Context, token string) error {
	if err := r.db.Conn(ctx).Model(&savedMethodRow{}).Where("token = ?", token).Update("is_default", true).Error; err != nil {
		if db.IsDuplicate(err) {
			return ports.ErrDuplicate
		}
		return fmt.Errorf("payments: set default: %w", err)
	}
	return nil
}

// Newest returns the owner's newest method, or nil.
func (r *SavedMethodRepository) Newest(ctx context.Context, owner string) (*domain.SavedMethod, error) {
	row, err := db.First[*savedMethodRow](r.db.Conn(ctx).Where("owner = ?", owner).Order("created_at DESC, token DESC"), nil, "payments: select saved method")
	if err != nil || row == nil {
		return nil, err
	}
	return row.toDomain(), nil
}

// Count counts the owner's methods.
func (r *SavedMethodRepository) Count(ctx context.Context, owner string) (int64, error) {
	var n int64
	if err := r.db.Conn(ctx).Model(&savedMethodRow{}).Where("owner = ?", owner).Count(&n).Error; err != nil {
		return 0, fmt.Errorf("payments: count saved methods: %w", err)
	}
	return n, nil
}

// Insert stores an in-progress record with INSERT ... ON CONFLICT DO NOTHING, so a
// duplicate neither fails the transaction (PostgreSQL) nor stores anything.
func (r *IdempotencyRepository) Insert(ctx context.Context, rec ports.IdempotencyRecord) (bool, error) {
	row := idempotencyRow{Scope: rec.Scope, IdemKey: rec.Key, RequestHash: rec.RequestHash, PaymentID: rec.PaymentID, CreatedAt: rec.CreatedAt.UTC()}
	return db.InsertNew(r.db.Conn(ctx), &row, "payments: insert idempotency key")
}

// Get returns a record or nil.
func (r *IdempotencyRepository) Get(ctx context.Context, scope, key string) (*ports.IdempotencyRecord, error) {
	row, err := db.First[*idempotencyRow](r.db.Conn(ctx).Where("scope = ? AND idem_key = ?", scope, key), nil, "payments: select idempotency key")
	if err != nil || row == nil {
		return nil, err
	}
	return &ports.IdempotencyRecord{Scope: row.Scope, Key: row.IdemKey, RequestHash: row.RequestHash, PaymentID: row.PaymentID, CreatedAt: row.CreatedAt.UTC()}, nil
}

// Record inserts an event once per (gateway, provider event id).
func (r *WebhookEventRepository) Record(ctx context.Context, e ports.WebhookEventRecord) (bool, error) {
	row := webhookEventRow{ID: e.ID, Gateway: e.Gateway, ProviderEventID: e.ProviderEventID, Type: e.Type, Payload: string(e.Payload), ReceivedAt: e.ReceivedAt.UTC()}
	return db.InsertNew(r.db.Conn(ctx), &row, "payments: insert webhook event")
}
