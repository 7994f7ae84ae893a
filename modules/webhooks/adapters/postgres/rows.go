package postgres

import (
	"encoding/json"
	"time"

	"github.com/gocommerce/commerce/modules/webhooks/domain"
	"github.com/gocommerce/commerce/platform/db"
)

type endpointRow struct {
	ID             string `gorm:"primaryKey"`
	URL            string
	Description    string
	Events         string // a JSON array
	Secret         string
	Enabled        bool
	FailureStreak  int
	DisabledAt     *time.Time
	DisabledReason string
	LeaseToken     string
	LockedUntil    *time.Time
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

func (endpointRow) TableName() string { return "webhook_endpoints" }

func fromEndpoint(e *domain.Endpoint) endpointRow {
	events, _ := json.Marshal(e.Events) // a []string always marshals
	return endpointRow{ID: e.ID, URL: e.URL, Description: e.Description, Events: string(events), Secret: e.Secret, Enabled: e.Enabled,
		FailureStreak: e.FailureStreak, DisabledAt: db.UTCPtr(e.DisabledAt), DisabledReason: e.DisabledReason,
		CreatedAt: e.CreatedAt.UTC(), UpdatedAt: e.UpdatedAt.UTC()}
}

func (r endpointRow) toDomain() (*domain.Endpoint, error) {
	var events []string
	if err := json.Unmarshal([]byte(r.Events), &events); err != nil {
		return nil, err
	}
	return &domain.Endpoint{ID: r.ID, URL: r.URL, Description: r.Description, Events: events, Secret: r.Secret, Enabled: r.Enabled,
		FailureStreak: r.FailureStreak, DisabledAt: db.UTCPtr(r.DisabledAt), DisabledReason: r.DisabledReason,
		CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC()}, nil
}

type deliveryRow struct {
	ID             string `gorm:"primaryKey"`
	EndpointID     string
	EventID        string
	EventType      string
	Payload        string
	DedupeKey      string
	Status         string
	Attempts       int
	NextAttemptAt  *time.Time
	LastStatusCode int
	LastError      string
	RedeliveryOf   string
	CreatedAt      time.Time
	UpdatedAt      time.Time
	CompletedAt    *time.Time
}

func (deliveryRow) TableName() string { return "webhook_deliveries" }

func fromDelivery(d *domain.Delivery) deliveryRow {
	key := d.EndpointID + ":" + d.EventID
	if d.RedeliveryOf != "" {
		key = d.ID
	}
	return deliveryRow{ID: d.ID, EndpointID: d.EndpointID, EventID: d.EventID, EventType: d.EventType, Payload: string(d.Payload),
		DedupeKey: key, Status: d.Status, Attempts: d.Attempts, NextAttemptAt: db.UTCPtr(d.NextAttemptAt),
		LastStatusCode: d.LastStatusCode, LastError: d.LastError, RedeliveryOf: d.RedeliveryOf,
		CreatedAt: d.CreatedAt.UTC(), UpdatedAt: d.UpdatedAt.UTC(), CompletedAt: db.UTCPtr(d.CompletedAt)}
}

func (r deliveryRow) toDomain() *domain.Delivery {
	return &domain.Delivery{ID: r.ID, EndpointID: r.EndpointID, EventID: r.EventID, EventType: r.EventType, Payload: []byte(r.Payload),
		Status: r.Status, Attempts: r.Attempts, NextAttemptAt: db.UTCPtr(r.NextAttemptAt), LastStatusCode: r.LastStatusCode,
		LastError: r.LastError, RedeliveryOf: r.RedeliveryOf, CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(),
		CompletedAt: db.UTCPtr(r.CompletedAt)}
}

type attemptRow struct {
	ID           string `gorm:"primaryKey"`
	DeliveryID   string
	EndpointID   string
	Attempt      int
	StatusCode   int
	DurationMS   int64 `gorm:"column:duration_ms"`
	ResponseBody string
	Error        string
	CreatedAt    time.Time
}

func (attemptRow) TableName() string { return "webhook_delivery_attempts" }

func fromAttempt(a domain.Attempt) attemptRow {
	return attemptRow{ID: a.ID, DeliveryID: a.DeliveryID, EndpointID: a.EndpointID, Attempt: a.Number, StatusCode: a.StatusCode,
		DurationMS: a.Duration.Milliseconds(), ResponseBody: a.ResponseBody, Error: a.Error, CreatedAt: a.CreatedAt.UTC()}
}

func (r attemptRow) toDomain() domain.Attempt {
	return domain.Attempt{ID: r.ID, DeliveryID: r.DeliveryID, EndpointID: r.EndpointID, Number: r.Attempt, StatusCode: r.StatusCode,
		Duration: time.Duration(r.DurationMS) * time.Millisecond, ResponseBody: r.ResponseBody, Error: r.Error, CreatedAt: r.CreatedAt.UTC()}
}
