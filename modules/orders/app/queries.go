package app

import (
	"context"
	"errors"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/orders/api"
	"github.com/gocommerce/commerce/modules/orders/domain"
	"github.com/gocommerce/commerce/modules/orders/ports"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/tx"
)

// QueryService is the read side of the module (and the customer anonymization). It
// depends only on the module's own stores, so catalog and customers can reach it
// through their ports (api.Queries) while the command Service depends on them.
type QueryService struct {
	settings Settings
	tx       tx.Manager
	orders   ports.OrderRepository
	notes    ports.NoteRepository
	clock    clock.Clock
}

var _ api.Queries = (*QueryService)(nil)

// NewQueryService builds the read side.
func NewQueryService(settings Settings, tm tx.Manager, stores Stores, clk clock.Clock) *QueryService {
	return &QueryService{settings: settings, tx: tm, orders: stores.Orders, notes: stores.Notes, clock: clk}
}

func loadOrder(ctx context.Context, repo ports.OrderRepository, key string) (*domain.Order, error) {
	id, number, err := ParseKey(key)
	if err != nil {
		return nil, err
	}
	if id != "" {
		return repo.Get(ctx, id)
	}
	return repo.GetByNumber(ctx, number)
}

// visible loads an order the actor may see: a customer sees only its own orders
// (ORDER_NOT_FOUND otherwise, exactly as for an unknown order).
func (q *QueryService) visible(ctx context.Context, a Actor, key string) (*domain.Order, error) {
	o, err := loadOrder(ctx, q.orders, key)
	if err != nil {
		return nil, err
	}
	if a.IsCustomer() && o.CustomerID != a.CustomerID {
		return nil, domain.ErrOrderNotFound
	}
	return o, nil
}

// Include names the optional parts of GET /orders/{id}.
type Include struct {
	Fulfillments, Refunds, Transactions, Notes bool
}

// Get returns an order with the included parts. Notes are staff-only (a customer
// asking for them gets 403).
func (q *QueryService) Get(ctx context.Context, a Actor, key string, inc Include) (api.Order, error) {
	if inc.Notes && a.IsCustomer() {
		return api.Order{}, errStaffOnly
	}
	o, err := q.visible(ctx, a, key)
	if err != nil {
		return api.Order{}, err
	}
	out := ToOrder(o)
	if inc.Fulfillments {
		fs := fulfillments(o)
		out.Fulfillments = &fs
	}
	if inc.Refunds {
		rs := refunds(o)
		out.Refunds = &rs
	}
	if inc.Transactions {
		ts := transactions(o)
		out.Transactions = &ts
	}
	if inc.Notes {
		ns, err := q.notes.ListAll(ctx, o.ID)
		if err != nil {
			return api.Order{}, err
		}
		list := mapped(ns, ToNote)
		out.Notes = &list
	}
	return out, nil
}

// mapped converts each of xs with to.
func mapped[T, R any](xs []T, to func(T) R) []R {
	out := make([]R, len(xs))
	for i, x := range xs {
		out[i] = to(x)
	}
	return out
}

// ofOrder converts each of an order's records with to, which also reads the order.
func ofOrder[T, R any](o *domain.Order, xs []T, to func(*domain.Order, T) R) []R {
	return mapped(xs, func(x T) R { return to(o, x) })
}

func fulfillments(o *domain.Order) []api.Fulfillment {
	return ofOrder(o, o.Fulfillments, ToFulfillment)
}

func refunds(o *domain.Order) []api.Refund { return ofOrder(o, o.Refunds, ToRefund) }

func transactions(o *domain.Order) []api.Transaction {
	return ofOrder(o, o.Transactions, ToTransaction)
}

// List returns a page of order summaries; a customer's list is its own orders only.
func (q *QueryService) List(ctx context.Context, a Actor, f ports.ListFilter) ([]api.OrderSummary, int64, error) {
	if a.IsCustomer() {
		f.CustomerID = a.CustomerID
	}
	list, total, err := q.orders.List(ctx, f)
	if err != nil {
		return nil, 0, err
	}
	return mapped(list, ToSummary), total, nil
}

func page[T any](all []T, offset, limit int) []T {
	if offset >= len(all) {
		return []T{}
	}
	return all[offset:min(len(all), offset+limit)]
}

// Fulfillments returns a page of an order's fulfillments, oldest first.
func (q *QueryService) Fulfillments(ctx context.Context, a Actor, key string, offset, limit int) ([]api.Fulfillment, int64, error) {
	return pageOfOrder(ctx, q, a, key, offset, limit, fulfillments)
}

// Fulfillment returns one fulfillment of an order (FULFILLMENT_NOT_FOUND).
func (q *QueryService) Fulfillment(ctx context.Context, a Actor, key, id string) (api.Fulfillment, error) {
	o, err := q.visible(ctx, a, key)
	if err != nil {
		return api.Fulfillment{}, err
	}
	f, err := o.FindFulfillment(id)
	if err != nil {
		return api.Fulfillment{}, err
	}
	return ToFulfillment(o, f), nil
}

// Refunds returns a page of an order's refunds, oldest first.
func (q *QueryService) Refunds(ctx context.Context, a Actor, key string, offset, limit int) ([]api.Refund, int64, error) {
	return pageOfOrder(ctx, q, a, key, offset, limit, refunds)
}

// Transactions returns a page of an order's transactions, oldest first.
func (q *QueryService) Transactions(ctx context.Context, a Actor, key string, offset, limit int) ([]api.Transaction, int64, error) {
	return pageOfOrder(ctx, q, a, key, offset, limit, transactions)
}

// Notes returns a page of an order's notes (staff only).
func (q *QueryService) Notes(ctx context.Context, a Actor, key string, offset, limit int) ([]api.Note, int64, error) {
	if a.IsCustomer() {
		return nil, 0, errStaffOnly
	}
	o, err := q.visible(ctx, a, key)
	if err != nil {
		return nil, 0, err
	}
	ns, total, err := q.notes.List(ctx, o.ID, offset, limit)
	if err != nil {
		return nil, 0, err
	}
	return mapped(ns, ToNote), total, nil
}

// Risk assesses an order (staff only): billing and shipping countries, failed payment
// attempts, the total against the large-order threshold, the email domain.
func (q *QueryService) Risk(ctx context.Context, a Actor, key string) (api.Risk, error) {
	if a.IsCustomer() {
		return api.Risk{}, errStaffOnly
	}
	o, err := q.visible(ctx, a, key)
	if err != nil {
		return api.Risk{}, err
	}
	threshold, err := q.largeOrderThreshold(ctx, o)
	if err != nil {
		return api.Risk{}, err
	}
	in := domain.RiskInput{Email: o.Email, FailedPayments: o.Money().Failed, Total: o.TotalPrice, LargeOrderThreshold: threshold, Currency: o.Currency}
	if o.BillingAddress != nil {
		in.BillingCountry = o.BillingAddress.Country
	}
	if o.ShippingAddress != nil {
		in.ShippingCountry = o.ShippingAddress.Country
	}
	r := domain.AssessRisk(in, q.settings.Risk)
	return api.Risk{OrderID: o.ID, Score: r.Score, Recommendation: r.Recommendation, AssessedAt: q.clock.Now().UTC(),
		Reasons: mapped(r.Reasons, func(x domain.RiskReason) api.RiskReason {
			return api.RiskReason{Code: x.Code, Message: x.Message, Score: x.Score}
		})}, nil
}

// largeOrderThreshold is LargeOrderMultiple × the average total of the store's other
// orders in the currency once there are LargeOrderMinOrders of them, else
// LargeOrderAmount.
func (q *QueryService) largeOrderThreshold(ctx context.Context, o *domain.Order) (decimal.Decimal, error) {
	avg, n, err := q.orders.AverageTotal(ctx, o.Currency, o.ID)
	if err != nil {
		return decimal.Zero, err
	}
	if n >= q.settings.LargeOrderMinOrders && avg.IsPositive() {
		return domain.Round(avg.Mul(q.settings.LargeOrderMultiple), o.Currency), nil
	}
	return q.settings.LargeOrderAmount, nil
}

// GetOrder returns an order by id or number (api.Queries).
func (q *QueryService) GetOrder(ctx context.Context, key string) (api.Order, error) {
	o, err := loadOrder(ctx, q.orders, key)
	if err != nil {
		return api.Order{}, err
	}
	return ToOrder(o), nil
}

// ProductHasOrders reports whether any order has a line of the product.
func (q *QueryService) ProductHasOrders(ctx context.Context, productID string) (bool, error) {
	return q.orders.ProductHasOrders(ctx, productID)
}

// CustomerHasOrders reports whether any order references the customer.
func (q *QueryService) CustomerHasOrders(ctx context.Context, customerID string) (bool, error) {
	return q.orders.CustomerHasOrders(ctx, customerID)
}

// ListCustomerOrders returns a page of a customer's orders, newest first. Unknown
// status values are a validation error.
func (q *QueryService) ListCustomerOrders(ctx context.Context, customerID string, f api.CustomerOrderFilter, offset, limit int) ([]api.OrderSummary, int64, error) {
	if f.Status != "" && !domain.Status(f.Status).Valid() {
		return nil, 0, apperr.Validation(map[string]string{"status": "must be one of: open, closed, cancelled"})
	}
	if f.FinancialStatus != "" && !domain.FinancialStatus(f.FinancialStatus).Valid() {
		return nil, 0, apperr.Validation(map[string]string{"financial_status": "is not a known financial status"})
	}
	if limit <= 0 {
		limit = 20
	}
	return q.List(ctx, Actor{}, ports.ListFilter{
		CustomerID: customerID, Status: f.Status, FinancialStatus: f.FinancialStatus,
		Sort: ports.SortCreatedAt, Desc: true, Offset: offset, Limit: limit,
	})
}

// ExportCustomerOrders returns every order of the customer with its fulfillments,
// refunds and transactions.
func (q *QueryService) ExportCustomerOrders(ctx context.Context, customerID string) ([]api.Order, error) {
	list, err := q.orders.ListByCustomer(ctx, customerID)
	if err != nil {
		return nil, err
	}
	out := make([]api.Order, len(list))
	for i, o := range list {
		out[i] = ToOrder(o)
		fs, rs, ts := fulfillments(o), refunds(o), transactions(o)
		out[i].Fulfillments, out[i].Refunds, out[i].Transactions = &fs, &rs, &ts
	}
	return out, nil
}

// AnonymizeCustomerOrders strips the customer's personal data from its orders, in the
// caller's transaction.
func (q *QueryService) AnonymizeCustomerOrders(ctx context.Context, customerID string) error {
	return q.tx.InTx(ctx, func(ctx context.Context) error {
		_, err := q.orders.AnonymizeCustomer(ctx, customerID, q.clock.Now())
		return err
	})
}

// isNotFound reports an ORDER_NOT_FOUND.
func isNotFound(err error) bool { return errors.Is(err, domain.ErrOrderNotFound) }

// pageOfOrder reads the order under key as a may see it and returns a page of the
// records list takes from it, with their total.
func pageOfOrder[T any](ctx context.Context, q *QueryService, a Actor, key string, offset, limit int, list func(*domain.Order) []T) ([]T, int64, error) {
	o, err := q.visible(ctx, a, key)
	if err != nil {
		return nil, 0, err
	}
	all := list(o)
	return page(all, offset, limit), int64(len(all)), nil
}
