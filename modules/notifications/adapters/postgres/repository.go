package postgres

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/gocommerce/commerce/modules/notifications/domain"
	"github.com/gocommerce/commerce/modules/notifications/ports"
	"github.com/gocommerce/commerce/platform/db"
)

// NotificationRepository implements ports.NotificationRepository.
type NotificationRepository struct{ db *db.DB }

// TemplateRepository implements ports.TemplateRepository.
type TemplateRepository struct{ db *db.DB }

// CartRepository implements ports.CartRepository.
type CartRepository struct{ db *db.DB }

var (
	_ ports.NotificationRepository = (*NotificationRepository)(nil)
	_ ports.TemplateRepository     = (*TemplateRepository)(nil)
	_ ports.CartRepository         = (*CartRepository)(nil)
)

// NewNotificationRepository builds the repository.
func NewNotificationRepository(d *db.DB) *NotificationRepository {
	return &NotificationRepository{db: d}
}

// NewTemplateRepository builds the repository.
func NewTemplateRepository(d *db.DB) *TemplateRepository { return &TemplateRepository{db: d} }

// NewCartRepository builds the repository.
func NewCartRepository(d *db.DB) *CartRepository { return &CartRepository{db: d} }

// insertBatch is the rows per INSERT of a bulk send: well under PostgreSQL's 65535
// parameters at 25 columns; the pure-Go SQLite driver binds parameters in time
// quadratic in their number, so it takes small statements.
func (r *NotificationRepository) insertBatch() int {
	if r.db.Dialect() == db.SQLite {
		return 40
	}
	return 500
}

// Create inserts notifications, insertBatch rows per statement.
func (r *NotificationRepository) Create(ctx context.Context, ns ...*domain.Notification) error {
	if len(ns) == 0 {
		return nil
	}
	rows := make([]notificationRow, len(ns))
	for i, n := range ns {
		rows[i] = fromNotification(n)
	}
	if err := r.db.Conn(ctx).CreateInBatches(&rows, r.insertBatch()).Error; err != nil {
		return fmt.Errorf("notifications: insert: %w", err)
	}
	return nil
}

// CreateOnce inserts n unless its dedupe key is taken.
func (r *NotificationRepository) CreateOnce(ctx context.Context, n *domain.Notification) (bool, error) {
	row := fromNotification(n)
	return db.InsertNew(r.db.Conn(ctx), &row, "notifications: insert once")
}

// Get loads a notification.
func (r *NotificationRepository) Get(ctx context.Context, id string) (*domain.Notification, error) {
	if !validID(id) {
		return nil, domain.ErrNotificationNotFound
	}
	row, err := db.First[notificationRow](r.db.Conn(ctx).Where("id = ?", id), domain.ErrNotificationNotFound, "notifications: select")
	if err != nil {
		return nil, err
	}
	return row.toDomain()
}

var sortColumns = map[string]string{"created_at": "created_at", "updated_at": "updated_at", "priority": "priority_rank"}

// List returns a filtered page.
func (r *NotificationRepository) List(ctx context.Context, f ports.Filter, offset, limit int) ([]*domain.Notification, int64, error) {
	q := r.db.Conn(ctx).Model(&notificationRow{})
	for col, v := range map[string]string{"channel": f.Channel, "status": f.Status, "priority": f.Priority, "recipient": f.Recipient,
		"customer_id": f.CustomerID} {
		if v != "" {
			q = q.Where(col+" = ?", v)
		}
	}
	q = db.Between(q, "created_at", f.CreatedAfter, f.CreatedBefore)
	col, ok := sortColumns[f.Sort]
	if !ok {
		col = "created_at"
	}
	rows, total, err := db.Page[notificationRow](q.Session(&gorm.Session{}), db.Order(col, "id", f.Desc), offset, limit,
		"notifications: count", "notifications: list")
	if err != nil {
		return nil, 0, err
	}
	out, err := db.MapErr(rows, notificationRow.toDomain)
	return out, total, err
}

// free is the condition of a notification no attempt holds.
const free = "(claimed_until IS NULL OR claimed_until < ?)"

// due is the condition of a notification waiting for an attempt.
const due = "((status = 'pending' AND (next_attempt_at IS NULL OR next_attempt_at <= ?)) OR " +
	"(status = 'failed' AND next_attempt_at IS NOT NULL AND next_attempt_at <= ? AND attempt_count < max_attempts))"

// Update applies change to the stored notification and saves it when nothing moved it
// meanwhile.
func (r *NotificationRepository) Update(ctx context.Context, id string, now time.Time, change func(*domain.Notification) error) (*domain.Notification, error) {
	n, err := r.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	status, count := n.Status, n.AttemptCount
	if err := change(n); err != nil {
		return nil, err
	}
	res := r.db.Conn(ctx).Model(&notificationRow{}).
		Where("id = ? AND status = ? AND attempt_count = ? AND "+free, id, status, count, now.UTC()).
		Updates(map[string]any{
			"status": n.Status, "error_message": n.ErrorMessage, "max_attempts": n.MaxAttempts,
			"next_attempt_at": db.UTCPtr(n.NextAttemptAt), "delivered_at": db.UTCPtr(n.DeliveredAt), "updated_at": n.UpdatedAt.UTC(),
		})
	if err := db.One(res, ports.ErrStale, "notifications: update"); err != nil {
		return nil, err
	}
	return n, nil
}

// Claim takes a due notification for one attempt.
func (r *NotificationRepository) Claim(ctx context.Context, id string, now, until time.Time) (*domain.Notification, bool, error) {
	now = now.UTC()
	res := r.db.Conn(ctx).Model(&notificationRow{}).Where("id = ? AND "+free+" AND "+due, id, now, now, now).
		Updates(map[string]any{"attempt_count": gorm.Expr("attempt_count + 1"), "claimed_until": until.UTC()})
	n, err := db.Affected(res, "notifications: claim")
	if err != nil || n == 0 {
		return nil, false, err
	}
	got, err := r.Get(ctx, id)
	return got, err == nil, err
}

// Finish stores an attempt's outcome and releases the claim.
func (r *NotificationRepository) Finish(ctx context.Context, n *domain.Notification, a domain.Attempt) error {
	conn := r.db.Conn(ctx)
	res := conn.Model(&notificationRow{}).Where("id = ?", n.ID).Updates(map[string]any{
		"status": n.Status, "error_message": n.ErrorMessage, "next_attempt_at": db.UTCPtr(n.NextAttemptAt),
		"sent_at": db.UTCPtr(n.SentAt), "delivered_at": db.UTCPtr(n.DeliveredAt), "provider_message_id": n.ProviderMessageID,
		"updated_at": n.UpdatedAt.UTC(), "claimed_until": nil,
	})
	if err := db.Done(res, "notifications: finish"); err != nil {
		return err
	}
	row := fromAttempt(n.ID, a)
	return db.Insert(conn, &row, nil, "notifications: insert attempt")
}

// Due returns the ids due at now, most urgent first.
func (r *NotificationRepository) Due(ctx context.Context, now time.Time, batchID string, limit int) ([]string, error) {
	now = now.UTC()
	q := r.db.Conn(ctx).Model(&notificationRow{}).Where(free+" AND "+due, now, now, now)
	if batchID != "" {
		q = q.Where("batch_id = ?", batchID)
	}
	var ids []string
	if err := q.Order("priority_rank DESC, created_at, id").Limit(limit).Pluck("id", &ids).Error; err != nil {
		return nil, fmt.Errorf("notifications: due: %w", err)
	}
	return ids, nil
}

// Attempts returns a notification's attempts.
func (r *NotificationRepository) Attempts(ctx context.Context, id string) ([]domain.Attempt, error) {
	return db.FindAs(r.db.Conn(ctx).Where("notification_id = ?", id).Order("attempted_at, id"), attemptRow.toDomain,
		"notifications: attempts")
}

// Stats counts per channel and status.
func (r *NotificationRepository) Stats(ctx context.Context, channel, customerID string, since time.Time) (ports.Stats, error) {
	q := r.db.Conn(ctx).Model(&notificationRow{}).Select("channel, status, COUNT(*) AS n").Where("created_at >= ?", since.UTC())
	if channel != "" {
		q = q.Where("channel = ?", channel)
	}
	if customerID != "" {
		q = q.Where("customer_id = ?", customerID)
	}
	var rows []struct {
		Channel, Status string
		N               int64
	}
	if err := q.Group("channel, status").Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("notifications: stats: %w", err)
	}
	out := ports.Stats{}
	for _, row := range rows {
		if out[row.Channel] == nil {
			out[row.Channel] = map[string]int64{}
		}
		out[row.Channel][row.Status] = row.N
	}
	return out, nil
}

// ByCustomer returns a customer's notifications, newest first.
func (r *NotificationRepository) ByCustomer(ctx context.Context, customerID string) ([]*domain.Notification, error) {
	rows, err := db.Find[notificationRow](r.db.Conn(ctx).Where("customer_id = ?", customerID).Order("created_at DESC, id DESC"),
		"notifications: by customer")
	if err != nil {
		return nil, err
	}
	return db.MapErr(rows, notificationRow.toDomain)
}

// FindByProviderID finds a notification by its provider message id.
func (r *NotificationRepository) FindByProviderID(ctx context.Context, providerID string) (*domain.Notification, error) {
	row, err := db.First[notificationRow](r.db.Conn(ctx).Where("provider_message_id = ? AND provider_message_id <> ''", providerID),
		domain.ErrNotificationNotFound, "notifications: by provider id")
	if err != nil {
		return nil, err
	}
	return row.toDomain()
}

// ForgetCustomer erases a customer's notifications' personal data.
func (r *NotificationRepository) ForgetCustomer(ctx context.Context, customerID string, now time.Time) (int64, error) {
	conn := r.db.Conn(ctx)
	if err := db.Done(conn.Model(&notificationRow{}).Where("customer_id = ? AND status IN ?", customerID,
		[]string{domain.StatusPending, domain.StatusFailed}).Updates(map[string]any{"status": domain.StatusCancelled,
		"next_attempt_at": nil, "updated_at": now.UTC()}), "notifications: cancel for a forgotten customer"); err != nil {
		return 0, err
	}
	return db.Affected(conn.Model(&notificationRow{}).Where("customer_id = ? AND recipient <> ''", customerID).Updates(map[string]any{
		"recipient": "", "subject": "", "body": "", "html_body": "", "metadata": "{}", "error_message": "", "updated_at": now.UTC(),
	}), "notifications: forget customer")
}

// RecordDeliveryEvent stores a webhook event id once.
func (r *NotificationRepository) RecordDeliveryEvent(ctx context.Context, id string, at time.Time) (bool, error) {
	return db.InsertNew(r.db.Conn(ctx), &deliveryEventRow{ID: id, ReceivedAt: at.UTC()}, "notifications: delivery event")
}

// validID reports a UUID-shaped id (a PostgreSQL uuid column refuses anything else).
func validID(id string) bool {
	if len(id) != 36 {
		return false
	}
	for i, c := range id {
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if c != '-' {
				return false
			}
		case (c < '0' || c > '9') && (c < 'a' || c > 'f') && (c < 'A' || c > 'F'):
			return false
		}
	}
	return true
}

// Create inserts a template; a taken id is domain.ErrTemplateExists.
func (r *TemplateRepository) Create(ctx context.Context, t *domain.Template) error {
	row := fromTemplate(t)
	return db.Insert(r.db.Conn(ctx), &row, domain.ErrTemplateExists, "notifications: insert template")
}

// Get loads a template.
func (r *TemplateRepository) Get(ctx context.Context, id string) (*domain.Template, error) {
	row, err := db.First[templateRow](r.db.Conn(ctx).Where("id = ?", id), domain.ErrTemplateNotFound, "notifications: select template")
	if err != nil {
		return nil, err
	}
	return row.toDomain()
}

// List returns the templates by id.
func (r *TemplateRepository) List(ctx context.Context, channel, category string) ([]*domain.Template, error) {
	q := r.db.Conn(ctx).Order("id")
	if channel != "" {
		q = q.Where("channel = ?", channel)
	}
	if category != "" {
		q = q.Where("category = ?", category)
	}
	rows, err := db.Find[templateRow](q, "notifications: list templates")
	if err != nil {
		return nil, err
	}
	return db.MapErr(rows, templateRow.toDomain)
}

// Update saves a template's editable fields.
func (r *TemplateRepository) Update(ctx context.Context, t *domain.Template) error {
	row := fromTemplate(t)
	res := r.db.Conn(ctx).Model(&templateRow{}).Where("id = ?", t.ID).Updates(map[string]any{
		"name": row.Name, "category": row.Category, "subject": row.Subject, "body": row.Body, "html_body": row.HTMLBody,
		"variables": row.Variables, "updated_at": row.UpdatedAt,
	})
	return db.One(res, domain.ErrTemplateNotFound, "notifications: update template")
}

// Delete removes a non-system template.
func (r *TemplateRepository) Delete(ctx context.Context, id string) error {
	return db.One(r.db.Conn(ctx).Where("id = ? AND NOT is_system", id).Delete(&templateRow{}), domain.ErrTemplateNotFound,
		"notifications: delete template")
}

// RemindedFor returns the reminded carts among cartIDs with the last change their last
// reminder was for.
func (r *CartRepository) RemindedFor(ctx context.Context, cartIDs []string) (map[string]time.Time, error) {
	out := make(map[string]time.Time, len(cartIDs))
	if len(cartIDs) == 0 {
		return out, nil
	}
	var rows []cartRow
	if err := r.db.Conn(ctx).Where("cart_id IN ? AND reminded_at IS NOT NULL", cartIDs).Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("notifications: reminded carts: %w", err)
	}
	for _, row := range rows {
		out[row.CartID] = row.LastActiveAt.UTC()
	}
	return out, nil
}

// Reminded records a reminder sent at for the cart as of its last change (one row a
// cart, replaced by the next reminder).
func (r *CartRepository) Reminded(ctx context.Context, c ports.CartActivity, at time.Time) error {
	row := fromCart(c)
	remindedAt := at.UTC()
	row.RemindedAt = &remindedAt
	return db.Done(r.db.Conn(ctx).Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "cart_id"}}, UpdateAll: true}).Create(&row),
		"notifications: cart reminded")
}

// ForgetCustomer forgets the reminders of a customer's carts.
func (r *CartRepository) ForgetCustomer(ctx context.Context, customerID string) error {
	return db.Done(r.db.Conn(ctx).Where("customer_id = ?", customerID).Delete(&cartRow{}), "notifications: forget customer carts")
}
