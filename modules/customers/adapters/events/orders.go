// Package events subscribes the customers module to other modules' events: the order
// events keep each customer's statistics current (docs/decisions/0044).
package events

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"
	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/modkit"
)

// OrderEventTypes are the order events whose data is the order resource; each one
// updates the order's fact (the latest version wins).
var OrderEventTypes = []string{
	"order.created", "order.updated", "order.cancelled", "order.closed", "order.reopened", "order.payment_received",
}

// OrderPayload is the part of the order resource (Part 2 "Order") customers reads from
// the data of an order event. The orders module publishes the order resource as the
// event's data; these members must be present with these names and types.
type OrderPayload struct {
	ID              string  `json:"id"`
	OrderNumber     string  `json:"order_number"`
	CustomerID      *string `json:"customer_id"` // null for guests: ignored
	TotalPrice      string  `json:"total_price"` // decimal string
	Currency        string  `json:"currency"`
	Status          string  `json:"status"`           // open, closed, cancelled
	FinancialStatus string  `json:"financial_status"` // pending, authorized, paid, ...
	CreatedAt       string  `json:"created_at"`       // RFC 3339
	UpdatedAt       string  `json:"updated_at"`       // RFC 3339; orders the versions
}

// Fact converts the payload; a malformed one is an error the relay will not fix by
// retrying, so callers log and drop it.
func (p OrderPayload) Fact() (domain.OrderFact, error) {
	f := domain.OrderFact{OrderID: p.ID, OrderNumber: p.OrderNumber, Currency: strings.ToUpper(p.Currency), Status: p.Status, FinancialStatus: p.FinancialStatus}
	if p.CustomerID != nil {
		f.CustomerID = domain.CustomerID(*p.CustomerID)
	}
	total, err := decimal.NewFromString(p.TotalPrice)
	if err != nil {
		return f, fmt.Errorf("total_price %q: %w", p.TotalPrice, err)
	}
	f.TotalPrice = total
	if f.CreatedAt, err = time.Parse(time.RFC3339Nano, p.CreatedAt); err != nil {
		return f, fmt.Errorf("created_at %q: %w", p.CreatedAt, err)
	}
	f.UpdatedAt = f.CreatedAt
	if p.UpdatedAt != "" {
		if f.UpdatedAt, err = time.Parse(time.RFC3339Nano, p.UpdatedAt); err != nil {
			return f, fmt.Errorf("updated_at %q: %w", p.UpdatedAt, err)
		}
	}
	f.CreatedAt, f.UpdatedAt = f.CreatedAt.UTC(), f.UpdatedAt.UTC()
	return f, nil
}

// OrderRecorder is the use case the subscriber calls.
type OrderRecorder interface {
	RecordOrder(ctx context.Context, f domain.OrderFact) error
}

// Subscriber turns order events into RecordOrder calls.
type Subscriber struct{ modkit.Reactor[OrderRecorder] }

// NewSubscriber builds the subscriber.
func NewSubscriber(app OrderRecorder, log *zap.Logger) *Subscriber {
	return &Subscriber{modkit.NewReactor(app, log, "customers.events")}
}

// Subscribe registers the order handlers.
func (s *Subscriber) Subscribe(bus event.Subscriber) {
	for _, t := range OrderEventTypes {
		bus.Subscribe(t, s.HandleOrder)
	}
}

// HandleOrder records one order event. Undecodable payloads are logged and dropped
// (a retry cannot fix them); store errors are returned so the relay retries.
func (s *Subscriber) HandleOrder(ctx context.Context, e event.Event) error {
	const dropped = "order event dropped: bad payload"
	p, ok := modkit.Decode[OrderPayload](s.Reactor, dropped, e, nil)
	if !ok {
		return nil
	}
	f, err := p.Fact()
	if err != nil {
		return s.Drop(dropped, e, err)
	}
	return s.App.RecordOrder(ctx, f)
}
