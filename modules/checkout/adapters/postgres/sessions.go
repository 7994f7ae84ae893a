package postgres

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/gocommerce/commerce/modules/checkout/domain"
	"github.com/gocommerce/commerce/modules/checkout/ports"
	"github.com/gocommerce/commerce/platform/db"
)

type sessionRow struct {
	ID            string     `gorm:"column:id;primaryKey"`
	CartID        string     `gorm:"column:cart_id"`
	Status        string     `gorm:"column:status"`
	OrderID       string     `gorm:"column:order_id"`
	PaymentID     string     `gorm:"column:payment_id"`
	Attempt       int        `gorm:"column:attempt"`
	HoldExpiresAt *time.Time `gorm:"column:hold_expires_at"`
	Version       int        `gorm:"column:version"`
	Data          string     `gorm:"column:data"`
	CreatedAt     time.Time  `gorm:"column:created_at"`
	UpdatedAt     time.Time  `gorm:"column:updated_at"`
}

func (sessionRow) TableName() string { return "checkout_sessions" }

// sessionData is the part of a session kept as JSON.
type sessionData struct {
	CustomerID      string             `json:"customer_id"`
	Email           string             `json:"email"`
	Currency        string             `json:"currency"`
	ShippingAddress *domain.Address    `json:"shipping_address"`
	BillingAddress  *domain.Address    `json:"billing_address"`
	VATID           string             `json:"vat_id"`
	Rates           []domain.Rate      `json:"rates"`
	Rate            *domain.Rate       `json:"rate"`
	Totals          domain.Totals      `json:"totals"`
	OrderNumber     string             `json:"order_number"`
	Action          *domain.Action     `json:"action"`
	Reservations    []string           `json:"reservations"`
	Coupons         []domain.CouponUse `json:"coupons"`
}

func toRow(s *domain.Session) (sessionRow, error) {
	data, err := json.Marshal(sessionData{
		CustomerID: s.CustomerID, Email: s.Email, Currency: s.Currency, ShippingAddress: s.ShippingAddress, BillingAddress: s.BillingAddress,
		VATID: s.VATID, Rates: s.Rates, Rate: s.Rate, Totals: s.Totals, OrderNumber: s.OrderNumber, Action: s.Action,
		Reservations: s.Reservations, Coupons: s.Coupons,
	})
	if err != nil {
		return sessionRow{}, fmt.Errorf("checkout: session data: %w", err)
	}
	return sessionRow{ID: s.ID, CartID: s.CartID, Status: string(s.Status), OrderID: s.OrderID, PaymentID: s.PaymentID, Attempt: s.Attempt,
		HoldExpiresAt: db.UTCPtr(s.HoldExpiresAt), Version: s.Version, Data: string(data), CreatedAt: s.CreatedAt.UTC(), UpdatedAt: s.UpdatedAt.UTC()}, nil
}

func (r sessionRow) session() (*domain.Session, error) {
	var d sessionData
	if err := json.Unmarshal([]byte(r.Data), &d); err != nil {
		return nil, fmt.Errorf("checkout: session data: %w", err)
	}
	return &domain.Session{
		ID: r.ID, CartID: r.CartID, CustomerID: d.CustomerID, Email: d.Email, Currency: d.Currency, Status: domain.Status(r.Status),
		ShippingAddress: d.ShippingAddress, BillingAddress: d.BillingAddress, VATID: d.VATID, Rates: d.Rates, Rate: d.Rate, Totals: d.Totals,
		Attempt: r.Attempt, OrderID: r.OrderID, OrderNumber: d.OrderNumber, PaymentID: r.PaymentID, Action: d.Action,
		Reservations: d.Reservations, Coupons: d.Coupons, HoldExpiresAt: db.UTCPtr(r.HoldExpiresAt), Version: r.Version,
		CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(),
	}, nil
}

// sessionColumns are a session row's columns in dest's order.
const sessionColumns = "id, cart_id, status, order_id, payment_id, attempt, hold_expires_at, version, data, created_at, updated_at"

// dest is the row's fields in sessionColumns' order, for a raw read's Scan.
func (r *sessionRow) dest() []any {
	return []any{&r.ID, &r.CartID, &r.Status, &r.OrderID, &r.PaymentID, &r.Attempt, &r.HoldExpiresAt, &r.Version, &r.Data, &r.CreatedAt, &r.UpdatedAt}
}

// Sessions implements ports.Sessions on checkout_sessions. A complete reads and writes
// its session several times: those statements are plain SQL (no gorm), prepared once
// per connection, and the finishing write can be queued in its transaction (SaveLater).
type Sessions struct {
	db *db.DB
	// The hot statements, bound for the dialect once.
	byCart, byPayment, save, claim string
}

var _ ports.Sessions = (*Sessions)(nil)

// NewSessions builds the repository.
func NewSessions(d *db.DB) *Sessions {
	const update = "UPDATE checkout_sessions SET status = ?, order_id = ?, payment_id = ?, hold_expires_at = ?, data = ?, updated_at = ?, version = version + 1"
	return &Sessions{
		db:        d,
		byCart:    d.Rebind("SELECT " + sessionColumns + " FROM checkout_sessions WHERE cart_id = ? LIMIT 1"),
		byPayment: d.Rebind("SELECT " + sessionColumns + " FROM checkout_sessions WHERE payment_id = ? LIMIT 1"),
		save:      d.Rebind(update + " WHERE id = ? AND version = ?"),
		claim:     d.Rebind(update + ", attempt = attempt + 1 WHERE id = ? AND version = ? AND status = ?"),
	}
}

func (s *Sessions) one(ctx context.Context, query string, arg any) (*domain.Session, bool, error) {
	var row sessionRow
	err := s.db.QueryRow(ctx, query, []any{arg}, row.dest()...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("checkout: session: %w", err)
	}
	sess, err := row.session()
	return sess, err == nil, err
}

// Get returns the cart's session.
func (s *Sessions) Get(ctx context.Context, cartID string) (*domain.Session, bool, error) {
	return s.one(ctx, s.byCart, cartID)
}

// ByPayment returns the session whose attempt has the payment.
func (s *Sessions) ByPayment(ctx context.Context, paymentID string) (*domain.Session, bool, error) {
	if paymentID == "" {
		return nil, false, nil
	}
	return s.one(ctx, s.byPayment, paymentID)
}

// AwaitingPayments returns the sessions awaiting one of the payments, by payment id,
// in one read.
func (s *Sessions) AwaitingPayments(ctx context.Context, paymentIDs []string) (map[string]*domain.Session, error) {
	out := map[string]*domain.Session{}
	if len(paymentIDs) == 0 {
		return out, nil
	}
	rows, err := db.Find[sessionRow](s.db.Conn(ctx).Where("payment_id IN ? AND status = ?", paymentIDs, string(domain.StatusAwaitingPayment)),
		"checkout: sessions awaiting payments")
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		sess, err := r.session()
		if err != nil {
			return nil, err
		}
		out[sess.PaymentID] = sess
	}
	return out, nil
}

// Create inserts a session unless the cart has one.
func (s *Sessions) Create(ctx context.Context, sess *domain.Session) error {
	sess.Version = 1
	row, err := toRow(sess)
	if err != nil {
		return err
	}
	_, err = db.InsertNew(s.db.Conn(ctx), &row, "checkout: session insert")
	return err
}

// write runs the save or claim statement over the session's stored version.
func (s *Sessions) write(ctx context.Context, what, query string, sess *domain.Session, where ...any) (int64, error) {
	row, err := toRow(sess)
	if err != nil {
		return 0, err
	}
	args := append([]any{row.Status, row.OrderID, row.PaymentID, row.HoldExpiresAt, row.Data, row.UpdatedAt, row.ID, row.Version}, where...)
	n, err := s.db.Exec(ctx, query, args...)
	if err != nil {
		return 0, fmt.Errorf("checkout: session %s: %w", what, err)
	}
	return n, nil
}

// Save writes the session if its version is the stored one.
func (s *Sessions) Save(ctx context.Context, sess *domain.Session) (bool, error) {
	n, err := s.write(ctx, "save", s.save, sess)
	if err != nil || n != 1 {
		return false, err
	}
	sess.Version++
	return true, nil
}

// SaveLater is Save queued in ctx's PostgreSQL transaction (db.Later): the write goes
// out with the transaction's next statement, and its version check then (db.Expect):
// stale is the transaction's failure when another writer saved first. Outside one, or
// on SQLite, it runs at once and answers stale itself.
func (s *Sessions) SaveLater(ctx context.Context, sess *domain.Session, stale error) error {
	if _, err := s.write(db.Later(db.Expect(ctx, 1, stale)), "save", s.save, sess); err != nil {
		if errors.Is(err, stale) {
			return stale
		}
		return err
	}
	sess.Version++
	return nil
}

// Claim writes the session processing for its attempt if the stored one is still
// open at the session's version.
func (s *Sessions) Claim(ctx context.Context, sess *domain.Session) (bool, error) {
	n, err := s.write(ctx, "claim", s.claim, sess, string(domain.StatusOpen))
	if err != nil || n != 1 {
		return false, err
	}
	sess.Version++
	sess.Attempt++
	return true, nil
}

// Lapsed returns sessions awaiting payment whose hold expired before now, and sessions
// processing since before stuck.
func (s *Sessions) Lapsed(ctx context.Context, now, stuck time.Time, limit int) ([]*domain.Session, error) {
	rows, err := db.Find[sessionRow](s.db.Conn(ctx).Where("(status = ? AND hold_expires_at < ?) OR (status = ? AND updated_at < ?)",
		string(domain.StatusAwaitingPayment), now.UTC(), string(domain.StatusProcessing), stuck.UTC()).
		Order("updated_at").Limit(limit), "checkout: lapsed sessions")
	if err != nil {
		return nil, err
	}
	return db.MapErr(rows, sessionRow.session)
}
