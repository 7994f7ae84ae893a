package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"reflect"
	"time"

	"github.com/shopspring/decimal"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/gocommerce/commerce/modules/orders/domain"
	"github.com/gocommerce/commerce/modules/orders/ports"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/ids"
)

// NextNumber takes the next order number. On PostgreSQL it is the order-number
// sequence's nextval: no lock, so concurrent creates do not queue behind each other's
// commits; a create that rolls back after taking its number leaves a gap (decision
// 0232). On SQLite the counter row is moved inside the ambient transaction (it stays
// locked until commit, and a rolled-back create gives its number back).
func (r *OrderRepository) NextNumber(ctx context.Context) (int64, error) {
	q := "UPDATE orders_counters SET value = value + 1 WHERE name = 'order_number' RETURNING value"
	if r.db.Dialect() == db.Postgres {
		q = "SELECT nextval('orders_order_number_seq')"
	}
	var v int64
	if err := r.db.QueryRow(ctx, q, nil, &v); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return 0, fmt.Errorf("orders: next number: counter row missing")
		}
		return 0, fmt.Errorf("orders: next number: %w", err)
	}
	return v, nil
}

// Create inserts an order with its children. An order without a number takes the
// next one: on PostgreSQL from the column's default (the sequence), returned by the
// insert itself; on SQLite from the counter row first.
func (r *OrderRepository) Create(ctx context.Context, o *domain.Order) error {
	if o.Number == 0 && r.db.Dialect() != db.Postgres {
		n, err := r.NextNumber(ctx)
		if err != nil {
			return err
		}
		o.Number = n
	}
	row := fromOrder(o)
	if err := r.orders.InsertOne(ctx, &row); err != nil {
		return err
	}
	if o.Number == 0 {
		if row.OrderNumber == 0 {
			return fmt.Errorf("orders: insert: no order number returned")
		}
		o.Number = row.OrderNumber
	}
	// A new order's children have new ids: their inserts are queued in a transaction
	// and go out with its next statement (decision 0240).
	return r.saveChildren(db.Later(ctx), o, nil)
}

// children are an order's child rows as loaded, by id: Update writes only the rows
// that changed since (an unchanged child costs no statement).
type children struct {
	lines        map[string]lineItemRow
	fulfillments map[string]fulfillmentRow
	refunds      map[string]refundRow
	transactions map[string]transactionRow
}

func byID[R any](rows []R, id func(R) string) map[string]R {
	m := make(map[string]R, len(rows))
	for _, row := range rows {
		m[id(row)] = row
	}
	return m
}

// unchangedFrom drops the rows equal to their loaded version (all kept when prev is nil).
func unchangedFrom[R any](rows []R, id func(R) string, prev map[string]R) []R {
	if prev == nil {
		return rows
	}
	out := rows[:0:0]
	for _, row := range rows {
		if old, ok := prev[id(row)]; !ok || !reflect.DeepEqual(old, row) {
			out = append(out, row)
		}
	}
	return out
}

type childRowSet struct {
	lines        []lineItemRow
	fulfillments []fulfillmentRow
	refunds      []refundRow
	transactions []transactionRow
}

func childRowsOf(o *domain.Order) childRowSet {
	c := childRowSet{
		lines:        make([]lineItemRow, len(o.LineItems)),
		fulfillments: db.Map(o.Fulfillments, func(f *domain.Fulfillment) fulfillmentRow { return fromFulfillment(o.ID, f) }),
		refunds:      db.Map(o.Refunds, func(x *domain.Refund) refundRow { return fromRefund(o.ID, x) }),
		transactions: make([]transactionRow, len(o.Transactions)),
	}
	for i, li := range o.LineItems {
		c.lines[i] = fromLineItem(o.ID, li)
	}
	for i, t := range o.Transactions {
		c.transactions[i] = fromTransaction(o.ID, i+1, t)
	}
	return c
}

func lineID(r lineItemRow) string           { return r.ID }
func fulfillmentID(r fulfillmentRow) string { return r.ID }
func refundID(r refundRow) string           { return r.ID }
func transactionID(r transactionRow) string { return r.ID }

// snapshot records the order's child rows as loaded.
func snapshot(o *domain.Order) *children {
	c := childRowsOf(o)
	return &children{
		lines: byID(c.lines, lineID), fulfillments: byID(c.fulfillments, fulfillmentID),
		refunds: byID(c.refunds, refundID), transactions: byID(c.transactions, transactionID),
	}
}

// saveChildren upserts the order's line items, fulfillments, refunds and transactions
// (plain SQL, db.Table): all of them for a new order (prev nil), else those changed
// since prev, deleting the line items removed since. With db.Later(ctx) the upserts
// are queued in the transaction.
func (r *OrderRepository) saveChildren(ctx context.Context, o *domain.Order, prev *children) error {
	var p children
	if prev != nil {
		p = *prev
	}
	c := childRowsOf(o)
	if err := r.lines.Upsert(ctx, unchangedFrom(c.lines, lineID, p.lines)); err != nil {
		return fmt.Errorf("orders: %w", err)
	}
	if prev != nil {
		keep := byID(c.lines, lineID)
		gone := make([]string, 0)
		for id := range p.lines {
			if _, ok := keep[id]; !ok {
				gone = append(gone, id)
			}
		}
		if len(gone) > 0 {
			if err := r.db.Conn(ctx).Where("order_id = ? AND id IN ?", o.ID, gone).Delete(&lineItemRow{}).Error; err != nil {
				return fmt.Errorf("orders: line items: %w", err)
			}
		}
	}
	if err := r.fulfillments.Upsert(ctx, unchangedFrom(c.fulfillments, fulfillmentID, p.fulfillments)); err != nil {
		return fmt.Errorf("orders: %w", err)
	}
	if err := r.refunds.Upsert(ctx, unchangedFrom(c.refunds, refundID, p.refunds)); err != nil {
		return fmt.Errorf("orders: %w", err)
	}
	if err := r.transactions.Upsert(ctx, unchangedFrom(c.transactions, transactionID, p.transactions)); err != nil {
		if db.IsDuplicate(err) {
			return domain.ErrStale.WithCause(err)
		}
		return fmt.Errorf("orders: %w", err)
	}
	return nil
}

// Get loads an order by id.
func (r *OrderRepository) Get(ctx context.Context, id string) (*domain.Order, error) {
	if !ids.Valid(id) {
		return nil, domain.ErrOrderNotFound
	}
	return r.load(ctx, r.db.Conn(ctx), "id = ?", id)
}

// GetByNumber loads an order by number.
func (r *OrderRepository) GetByNumber(ctx context.Context, number int64) (*domain.Order, error) {
	return r.load(ctx, r.db.Conn(ctx), "order_number = ?", number)
}

func (r *OrderRepository) load(ctx context.Context, q *gorm.DB, where string, arg any) (*domain.Order, error) {
	row, err := db.First[orderRow](q.Where(where, arg), domain.ErrOrderNotFound, "orders: select")
	if err != nil {
		return nil, err
	}
	o, err := row.toDomain()
	if err != nil {
		return nil, err
	}
	if err := r.loadChildren(r.db.Conn(ctx), []*domain.Order{o}); err != nil {
		return nil, err
	}
	return o, nil
}

// loadChildren fills the orders' line items, fulfillments, refunds and transactions
// (four queries whatever the number of orders).
func (r *OrderRepository) loadChildren(conn *gorm.DB, orders []*domain.Order) error {
	if len(orders) == 0 {
		return nil
	}
	byID := make(map[string]*domain.Order, len(orders))
	idList := make([]string, len(orders))
	for i, o := range orders {
		byID[o.ID], idList[i] = o, o.ID
	}
	of := func(order string) *gorm.DB { return conn.Where("order_id IN ?", idList).Order(order) }
	lines, err := db.Find[lineItemRow](of("order_id, position"), "orders: line items")
	if err != nil {
		return err
	}
	for _, l := range lines {
		o := byID[l.OrderID]
		o.LineItems = append(o.LineItems, l.toDomain())
	}
	fs, err := db.Find[fulfillmentRow](of("created_at, id"), "orders: fulfillments")
	if err != nil {
		return err
	}
	for _, f := range fs {
		d, err := f.toDomain()
		if err != nil {
			return err
		}
		byID[f.OrderID].Fulfillments = append(byID[f.OrderID].Fulfillments, d)
	}
	rs, err := db.Find[refundRow](of("created_at, id"), "orders: refunds")
	if err != nil {
		return err
	}
	for _, x := range rs {
		d, err := x.toDomain()
		if err != nil {
			return err
		}
		byID[x.OrderID].Refunds = append(byID[x.OrderID].Refunds, d)
	}
	ts, err := db.Find[transactionRow](of("order_id, position"), "orders: transactions")
	for _, t := range ts {
		byID[t.OrderID].Transactions = append(byID[t.OrderID].Transactions, t.toDomain())
	}
	return err
}

// Update loads the order row-locked (FOR UPDATE on PostgreSQL; SQLite has one writer),
// applies change and saves it with an optimistic version check.
func (r *OrderRepository) Update(ctx context.Context, id string, change func(*domain.Order) error) (*domain.Order, error) {
	if !ids.Valid(id) {
		return nil, domain.ErrOrderNotFound
	}
	conn := r.db.Conn(ctx)
	o, err := r.load(ctx, conn.Clauses(clause.Locking{Strength: "UPDATE"}), "id = ?", id)
	if err != nil {
		return nil, err
	}
	prev := snapshot(o)
	if err := change(o); errors.Is(err, ports.ErrUnchanged) {
		return o, nil
	} else if err != nil {
		return nil, err
	}
	old := o.Version
	o.Version = old + 1
	row := fromOrder(o)
	res := conn.Model(&orderRow{}).Where("id = ? AND version = ?", id, old).
		Select("*").Omit("id", "order_number", "created_at").Updates(&row)
	if err := db.One(res, domain.ErrStale, "orders: update"); err != nil {
		return nil, err
	}
	if err := r.saveChildren(ctx, o, prev); err != nil {
		return nil, err
	}
	return o, nil
}

var sortColumns = map[string]string{
	ports.SortCreatedAt:  "created_at",
	ports.SortUpdatedAt:  "updated_at",
	ports.SortTotalPrice: "total_price_units",
}

// List returns a page of orders matching the filter, and the total.
func (r *OrderRepository) List(ctx context.Context, f ports.ListFilter) ([]*domain.Order, int64, error) {
	q := r.db.Conn(ctx).Model(&orderRow{})
	if f.Status != "" {
		q = q.Where("status = ?", f.Status)
	}
	if f.FinancialStatus != "" {
		q = q.Where("financial_status = ?", f.FinancialStatus)
	}
	if f.FulfillmentStatus != "" {
		q = q.Where("fulfillment_status = ?", f.FulfillmentStatus)
	}
	if f.CustomerID != "" {
		if !ids.Valid(f.CustomerID) {
			return []*domain.Order{}, 0, nil
		}
		q = q.Where("customer_id = ?", f.CustomerID)
	}
	if f.Email != "" {
		q = q.Where("lower(email) = lower(?)", f.Email)
	}
	if f.OrderNumber > 0 {
		q = q.Where("order_number = ?", f.OrderNumber)
	}
	if f.MinTotal != nil {
		q = q.Where("total_price_units >= ?", domain.Units(*f.MinTotal))
	}
	if f.MaxTotal != nil {
		q = q.Where("total_price_units <= ?", domain.Units(*f.MaxTotal))
	}
	q = db.Between(db.Between(q, "created_at", f.CreatedAfter, f.CreatedBefore), "updated_at", f.UpdatedAfter, nil)
	col, ok := sortColumns[f.Sort]
	if !ok {
		col = "created_at"
	}
	rows, total, err := db.Page[orderRow](q.Session(&gorm.Session{}), db.Order(col, "order_number", f.Desc), f.Offset, f.Limit, "orders: count", "orders: list")
	if err != nil {
		return nil, 0, err
	}
	out, err := db.MapErr(rows, orderRow.toDomain)
	return out, total, err
}

// ProductHasOrders reports whether a line item references the product.
func (r *OrderRepository) ProductHasOrders(ctx context.Context, productID string) (bool, error) {
	if !ids.Valid(productID) {
		return false, nil
	}
	var n int64
	if err := r.db.Conn(ctx).Model(&lineItemRow{}).Where("product_id = ?", productID).Limit(1).Count(&n).Error; err != nil {
		return false, fmt.Errorf("orders: product has orders: %w", err)
	}
	return n > 0, nil
}

// CustomerHasOrders reports whether an order references the customer.
func (r *OrderRepository) CustomerHasOrders(ctx context.Context, customerID string) (bool, error) {
	if !ids.Valid(customerID) {
		return false, nil
	}
	var n int64
	if err := r.db.Conn(ctx).Model(&orderRow{}).Where("customer_id = ?", customerID).Limit(1).Count(&n).Error; err != nil {
		return false, fmt.Errorf("orders: customer has orders: %w", err)
	}
	return n > 0, nil
}

// ListByCustomer returns every order of the customer with its children, newest first.
func (r *OrderRepository) ListByCustomer(ctx context.Context, customerID string) ([]*domain.Order, error) {
	if !ids.Valid(customerID) {
		return []*domain.Order{}, nil
	}
	conn := r.db.Conn(ctx)
	rows, err := db.Find[orderRow](conn.Where("customer_id = ?", customerID).Order("created_at DESC, order_number DESC"), "orders: by customer")
	if err != nil {
		return nil, err
	}
	out, err := db.MapErr(rows, orderRow.toDomain)
	if err != nil {
		return nil, err
	}
	return out, r.loadChildren(conn, out)
}

// AnonymizeCustomer strips personal data from the customer's orders and detaches them.
func (r *OrderRepository) AnonymizeCustomer(ctx context.Context, customerID string, now time.Time) (int64, error) {
	if !ids.Valid(customerID) {
		return 0, nil
	}
	return db.Affected(r.db.Conn(ctx).Model(&orderRow{}).Where("customer_id = ?", customerID).Updates(map[string]any{
		"customer_id": nil, "email": "", "phone": "", "shipping_address": nil, "billing_address": nil, "client_details": nil,
		"updated_at": now.UTC(), "version": gorm.Expr("version + 1"),
	}), "orders: anonymize")
}

// AverageTotal averages total_price over the currency's orders that are not cancelled.
func (r *OrderRepository) AverageTotal(ctx context.Context, currency, excludeID string) (decimal.Decimal, int64, error) {
	var out []struct {
		Sum   int64
		Count int64
	}
	q := r.db.Conn(ctx).Model(&orderRow{}).Select("COALESCE(SUM(total_price_units), 0) AS sum, COUNT(*) AS count").
		Where("currency = ? AND status <> ?", currency, string(domain.StatusCancelled))
	if ids.Valid(excludeID) {
		q = q.Where("id <> ?", excludeID)
	}
	err := q.Scan(&out).Error
	if err != nil {
		return decimal.Zero, 0, fmt.Errorf("orders: average: %w", err)
	}
	if len(out) == 0 || out[0].Count == 0 {
		return decimal.Zero, 0, nil
	}
	avg := decimal.NewFromInt(out[0].Sum).Shift(-4).Div(decimal.NewFromInt(out[0].Count))
	return avg, out[0].Count, nil
}

// HasTransaction reports whether the order has the payment's transaction of that kind
// and status.
func (r *OrderRepository) HasTransaction(ctx context.Context, orderID, paymentID string, kind domain.TransactionKind, status domain.TransactionStatus) (bool, error) {
	var found []string
	err := r.db.Conn(ctx).Model(&transactionRow{}).Where("order_id = ? AND payment_id = ? AND kind = ? AND status = ?", orderID, paymentID, string(kind), string(status)).
		Limit(1).Pluck("id", &found).Error
	if err != nil {
		return false, fmt.Errorf("orders: payment transaction: %w", err)
	}
	return len(found) > 0, nil
}

// SalesRecorded answers the orders that recorded each payment's sale successfully.
func (r *OrderRepository) SalesRecorded(ctx context.Context, paymentIDs []string) (map[string][]string, error) {
	out := map[string][]string{}
	if len(paymentIDs) == 0 {
		return out, nil
	}
	var orderID, paymentID string
	err := r.db.Query(ctx, r.db.Rebind("SELECT order_id, payment_id FROM orders_transactions WHERE payment_id IN ("+db.Params(len(paymentIDs))+
		") AND kind = ? AND status = ?"), append(db.Map(paymentIDs, func(id string) any { return id }), string(domain.KindSale), string(domain.TxSuccess)),
		[]any{&orderID, &paymentID}, func() error {
			out[paymentID] = append(out[paymentID], orderID)
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("orders: recorded sales: %w", err)
	}
	return out, nil
}

// OrderIDForPayment finds the order that recorded a payment.
func (r *OrderRepository) OrderIDForPayment(ctx context.Context, paymentID string) (string, error) {
	var found []string
	if err := r.db.Conn(ctx).Model(&transactionRow{}).Where("payment_id = ?", paymentID).Limit(1).Pluck("order_id", &found).Error; err != nil {
		return "", fmt.Errorf("orders: by payment: %w", err)
	}
	if len(found) == 0 {
		return "", domain.ErrOrderNotFound
	}
	return found[0], nil
}
