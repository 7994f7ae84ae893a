// Package events feeds other modules' events to the statistics: the order events
// (each carries the whole order) update the per-order records and the rollups, the
// product events the catalog's costs and stock, the customer events the customers.
package events

import (
	"context"

	"go.uber.org/zap"

	catalog "github.com/gocommerce/commerce/modules/catalog/api"
	customers "github.com/gocommerce/commerce/modules/customers/api"
	orders "github.com/gocommerce/commerce/modules/orders/api"
	"github.com/gocommerce/commerce/modules/statistics/app"
	subscriptions "github.com/gocommerce/commerce/modules/subscriptions/api"
	"github.com/gocommerce/commerce/platform/event"
)

// OrderEvents are the order events whose data is the order (or embeds it).
var OrderEvents = []string{orders.EventOrderCreated, orders.EventOrderUpdated, orders.EventOrderCancelled,
	orders.EventOrderClosed, orders.EventOrderReopened, orders.EventOrderPaymentReceived}

// ProductEvents are the product events whose data is the product with its variants.
var ProductEvents = []string{catalog.EventProductCreated, catalog.EventProductUpdated, catalog.EventProductPublished,
	catalog.EventProductUnpublished, catalog.EventProductInventoryChanged, catalog.EventProductLowStock,
	catalog.EventProductOutOfStock}

// SubscriptionEvents are the subscription events (data: the subscription).
var SubscriptionEvents = []string{subscriptions.EventSubscriptionCreated, subscriptions.EventSubscriptionUpdated,
	subscriptions.EventSubscriptionPaused, subscriptions.EventSubscriptionResumed, subscriptions.EventSubscriptionCancelled,
	subscriptions.EventSubscriptionExpired, subscriptions.EventSubscriptionRenewed, subscriptions.EventSubscriptionPastDue,
	subscriptions.EventSubscriptionRecovered}

// Subscriber is the module's consumer.
type Subscriber struct {
	svc *app.Service
	log *zap.Logger
}

// NewSubscriber builds the subscriber.
func NewSubscriber(svc *app.Service, log *zap.Logger) *Subscriber {
	return &Subscriber{svc: svc, log: log.Named("statistics.events")}
}

// Subscribe registers the handlers.
func (s *Subscriber) Subscribe(bus event.Subscriber) {
	// Every stock change re-sends the product, and every order's creation and payment
	// come as two events: a relay batch of each kind is one write (decision 0231).
	if bs, ok := bus.(event.BatchSubscriber); ok {
		bs.SubscribeBatch(ProductEvents, s.HandleProducts)
		bs.SubscribeBatch(OrderEvents, s.HandleOrders)
	} else {
		for _, t := range ProductEvents {
			bus.Subscribe(t, s.HandleProduct)
		}
		for _, t := range OrderEvents {
			bus.Subscribe(t, s.HandleOrder)
		}
	}
	for _, t := range SubscriptionEvents {
		bus.Subscribe(t, s.HandleSubscription)
	}
	bus.Subscribe(catalog.EventProductDeleted, s.HandleProductDeleted)
	bus.Subscribe(customers.EventCustomerCreated, s.HandleCustomer)
	bus.Subscribe(customers.EventCustomerDeleted, s.HandleCustomerDeleted)
}

// decode reads e's data into v; an undecodable payload is logged and dropped (a retry
// cannot fix it).
func (s *Subscriber) decode(e event.Event, v any, id func() string) bool {
	if err := e.Decode(v); err != nil || id() == "" {
		s.log.Warn(e.Type+" dropped", zap.String("event_id", e.ID), zap.Error(err))
		return false
	}
	return true
}

// HandleOrder records the order the event carries; a store error goes back to the
// relay, which retries (recording is idempotent).
func (s *Subscriber) HandleOrder(ctx context.Context, e event.Event) error {
	var o orders.Order
	if !s.decode(e, &o, func() string { return o.ID }) {
		return nil
	}
	return s.svc.RecordOrder(ctx, orderFacts(o))
}

// HandleOrders records the orders a batch of order events shows, in their order.
func (s *Subscriber) HandleOrders(ctx context.Context, es []event.Event) error {
	return s.svc.RecordOrders(ctx, decodeAll(s, es, func(o *orders.Order) string { return o.ID }, orderFacts))
}

// decodeAll decodes each event's data as a T and converts it, dropping (as decode
// does) an event whose data is undecodable or has no id.
func decodeAll[T, F any](s *Subscriber, es []event.Event, id func(*T) string, conv func(T) F) []F {
	out := make([]F, 0, len(es))
	for _, e := range es {
		var v T
		if s.decode(e, &v, func() string { return id(&v) }) {
			out = append(out, conv(v))
		}
	}
	return out
}

// HandleProduct records the product's costs and stock.
func (s *Subscriber) HandleProduct(ctx context.Context, e event.Event) error {
	var p catalog.ProductResource
	if !s.decode(e, &p, func() string { return p.ID }) {
		return nil
	}
	return s.svc.RecordProduct(ctx, productFacts(p))
}

// HandleProducts records the products a batch of product events shows, each as its
// latest event does.
func (s *Subscriber) HandleProducts(ctx context.Context, es []event.Event) error {
	return s.svc.RecordProducts(ctx, decodeAll(s, es, func(p *catalog.ProductResource) string { return p.ID }, productFacts))
}

// HandleProductDeleted forgets the product.
func (s *Subscriber) HandleProductDeleted(ctx context.Context, e event.Event) error {
	var p catalog.ProductResource
	if !s.decode(e, &p, func() string { return p.ID }) {
		return nil
	}
	return s.svc.ForgetProduct(ctx, p.ID)
}

// HandleCustomer records a new customer.
func (s *Subscriber) HandleCustomer(ctx context.Context, e event.Event) error {
	var c customers.Customer
	if !s.decode(e, &c, func() string { return c.ID }) {
		return nil
	}
	return s.svc.RecordCustomer(ctx, customerFacts(c))
}

// HandleCustomerDeleted forgets a deleted customer.
func (s *Subscriber) HandleCustomerDeleted(ctx context.Context, e event.Event) error {
	var c customers.CustomerDeleted
	if !s.decode(e, &c, func() string { return c.ID }) {
		return nil
	}
	return s.svc.ForgetCustomer(ctx, c.ID)
}

// HandleSubscription records the subscription's status and monthly amount.
func (s *Subscriber) HandleSubscription(ctx context.Context, e event.Event) error {
	var sub subscriptions.Subscription
	if !s.decode(e, &sub, func() string { return sub.ID }) {
		return nil
	}
	return s.svc.RecordSubscription(ctx, subscriptionFacts(sub))
}
