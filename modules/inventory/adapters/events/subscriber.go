// Package events subscribes inventory to the catalog's events: stock set from product
// and variant requests, deletions, and product changes that rename a product or move
// its low-stock threshold. Every handler is idempotent (delivery is at least once).
package events

import (
	"context"

	"go.uber.org/zap"

	catalog "github.com/gocommerce/commerce/modules/catalog/api"
	"github.com/gocommerce/commerce/modules/inventory/app"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/modkit"
)

// Subscriber turns catalog events into inventory use cases.
type Subscriber struct{ modkit.Reactor[*app.Service] }

// NewSubscriber builds the subscriber.
func NewSubscriber(svc *app.Service, log *zap.Logger) *Subscriber {
	return &Subscriber{modkit.NewReactor(svc, log, "inventory.events")}
}

// Register subscribes the handlers.
func (s *Subscriber) Register(sub event.Subscriber) {
	sub.Subscribe(catalog.EventStockSet, s.StockSet)
	sub.Subscribe(catalog.EventProductDeleted, s.ProductDeleted)
	sub.Subscribe(catalog.EventVariantDeleted, s.VariantDeleted)
	sub.Subscribe(catalog.EventProductUpdated, s.ProductUpdated)
}

// resource is the part of a product or variant resource the handlers read.
type resource struct {
	ID        string `json:"id"`
	ProductID string `json:"product_id"`
}

// decode reads the event data; a payload that cannot be read is dropped (logged),
// since retrying cannot fix it.
func (s *Subscriber) decode(e event.Event, v any) bool {
	if err := e.Decode(v); err != nil {
		s.Log.Error("undecodable event dropped", zap.String("type", e.Type), zap.String("id", e.ID), zap.Error(err))
		return false
	}
	return true
}

// StockSet sets the available stock at the default location (catalog.stock_set).
func (s *Subscriber) StockSet(ctx context.Context, e event.Event) error {
	var d catalog.StockSet
	if !s.decode(e, &d) {
		return nil
	}
	return s.App.ApplyStockSet(ctx, app.StockSetCommand{EventID: e.ID, ProductID: d.ProductID, VariantID: d.VariantID, Quantity: d.Quantity})
}

// ProductDeleted removes the product's levels (product.deleted).
func (s *Subscriber) ProductDeleted(ctx context.Context, e event.Event) error {
	if id, ok := s.productID(e); ok {
		return s.App.ProductDeleted(ctx, id)
	}
	return nil
}

// VariantDeleted removes the variant's levels (variant.deleted).
func (s *Subscriber) VariantDeleted(ctx context.Context, e event.Event) error {
	var d resource
	if !s.decode(e, &d) {
		return nil
	}
	return s.App.VariantDeleted(ctx, d.ProductID, d.ID)
}

// ProductUpdated refreshes the product's name and threshold kept with its stock
// (product.updated).
func (s *Subscriber) ProductUpdated(ctx context.Context, e event.Event) error {
	if id, ok := s.productID(e); ok {
		return s.App.ProductChanged(ctx, id)
	}
	return nil
}

// productID is a product event's product: data.id, else the aggregate's id; false
// when the payload does not decode (logged by decode).
func (s *Subscriber) productID(e event.Event) (string, bool) {
	var d resource
	if !s.decode(e, &d) {
		return "", false
	}
	if d.ID == "" {
		return e.AggregateID, true
	}
	return d.ID, true
}
