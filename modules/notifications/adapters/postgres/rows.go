package postgres

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/gocommerce/commerce/modules/notifications/domain"
	"github.com/gocommerce/commerce/modules/notifications/ports"
	"github.com/gocommerce/commerce/platform/db"
)

type notificationRow struct {
	ID                string `gorm:"primaryKey"`
	Channel           string
	Recipient         string
	Subject           string
	Body              string
	HTMLBody          string `gorm:"column:html_body"`
	Priority          string
	PriorityRank      int
	Status            string
	AttemptCount      int
	MaxAttempts       int
	ErrorMessage      string
	Metadata          string
	TemplateID        string
	CustomerID        string
	BatchID           string
	ProviderMessageID string
	DedupeKey         *string
	ScheduledAt       *time.Time
	NextAttemptAt     *time.Time
	ClaimedUntil      *time.Time
	SentAt            *time.Time
	DeliveredAt       *time.Time
	CreatedAt         time.Time
	UpdatedAt         time.Time
}

func (notificationRow) TableName() string { return "notifications" }

func fromNotification(n *domain.Notification) notificationRow {
	meta, _ := json.Marshal(n.Metadata) //nolint:errchkjson // decoded JSON values always encode
	if n.Metadata == nil {
		meta = []byte("{}")
	}
	return notificationRow{
		ID: n.ID, Channel: n.Channel, Recipient: n.Recipient, Subject: n.Subject, Body: n.Body, HTMLBody: n.HTMLBody,
		Priority: n.Priority, PriorityRank: domain.PriorityRank(n.Priority), Status: n.Status, AttemptCount: n.AttemptCount,
		MaxAttempts: n.MaxAttempts, ErrorMessage: n.ErrorMessage, Metadata: string(meta), TemplateID: n.TemplateID,
		CustomerID: n.CustomerID, BatchID: n.BatchID, ProviderMessageID: n.ProviderMessageID, DedupeKey: db.NullString(n.DedupeKey),
		ScheduledAt: db.UTCPtr(n.ScheduledAt), NextAttemptAt: db.UTCPtr(n.NextAttemptAt), SentAt: db.UTCPtr(n.SentAt),
		DeliveredAt: db.UTCPtr(n.DeliveredAt), CreatedAt: n.CreatedAt.UTC(), UpdatedAt: n.UpdatedAt.UTC(),
	}
}

func (r notificationRow) toDomain() (*domain.Notification, error) {
	meta := map[string]any{}
	if err := json.Unmarshal([]byte(r.Metadata), &meta); err != nil {
		return nil, fmt.Errorf("notifications: metadata of %s: %w", r.ID, err)
	}
	return &domain.Notification{
		ID: r.ID, Channel: r.Channel, Recipient: r.Recipient, Subject: r.Subject, Body: r.Body, HTMLBody: r.HTMLBody,
		Priority: r.Priority, Status: r.Status, AttemptCount: r.AttemptCount, MaxAttempts: r.MaxAttempts,
		ErrorMessage: r.ErrorMessage, Metadata: meta, TemplateID: r.TemplateID, CustomerID: r.CustomerID, BatchID: r.BatchID,
		ProviderMessageID: r.ProviderMessageID, DedupeKey: db.Deref(r.DedupeKey), ScheduledAt: utc(r.ScheduledAt),
		NextAttemptAt: utc(r.NextAttemptAt), SentAt: utc(r.SentAt), DeliveredAt: utc(r.DeliveredAt),
		CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(),
	}, nil
}

func utc(t *time.Time) *time.Time { return db.UTCPtr(t) }

// attemptRow is an attempt: its columns are the domain attempt's fields.
type attemptRow struct{ domain.Attempt }

func (attemptRow) TableName() string { return "notification_attempts" }

// fromAttempt is a's row as an attempt of the notification notificationID.
func fromAttempt(notificationID string, a domain.Attempt) attemptRow {
	a.NotificationID, a.AttemptedAt = notificationID, a.AttemptedAt.UTC()
	return attemptRow{a}
}

func (r attemptRow) toDomain() domain.Attempt {
	a := r.Attempt
	a.AttemptedAt = a.AttemptedAt.UTC()
	return a
}

type templateRow struct {
	ID        string `gorm:"primaryKey"`
	Name      string
	Channel   string
	Category  string
	Subject   string
	Body      string
	HTMLBody  string `gorm:"column:html_body"`
	Variables string
	IsSystem  bool
	CreatedAt time.Time
	UpdatedAt time.Time
}

func (templateRow) TableName() string { return "notification_templates" }

func fromTemplate(t *domain.Template) templateRow {
	vars, _ := json.Marshal(t.Variables) //nolint:errchkjson // strings always encode
	if t.Variables == nil {
		vars = []byte("[]")
	}
	return templateRow{ID: t.ID, Name: t.Name, Channel: t.Channel, Category: t.Category, Subject: t.Subject, Body: t.Body,
		HTMLBody: t.HTMLBody, Variables: string(vars), IsSystem: t.IsSystem, CreatedAt: t.CreatedAt.UTC(), UpdatedAt: t.UpdatedAt.UTC()}
}

func (r templateRow) toDomain() (*domain.Template, error) {
	vars := []string{}
	if err := json.Unmarshal([]byte(r.Variables), &vars); err != nil {
		return nil, fmt.Errorf("notifications: variables of template %s: %w", r.ID, err)
	}
	return &domain.Template{ID: r.ID, Name: r.Name, Channel: r.Channel, Category: r.Category, Subject: r.Subject, Body: r.Body,
		HTMLBody: r.HTMLBody, Variables: vars, IsSystem: r.IsSystem, CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC()}, nil
}

type deliveryEventRow struct {
	ID         string `gorm:"primaryKey"`
	ReceivedAt time.Time
}

func (deliveryEventRow) TableName() string { return "notification_delivery_events" }

// cartRow is a reminded cart: the activity (last change) its last reminder was for
// (cart_id is the table's primary key) and when it was sent (decision 0233).
type cartRow struct {
	ports.CartActivity
	RemindedAt *time.Time
}

func (cartRow) TableName() string { return "notification_cart_activity" }

func fromCart(c ports.CartActivity) cartRow {
	c.LastActiveAt = c.LastActiveAt.UTC()
	return cartRow{CartActivity: c}
}
