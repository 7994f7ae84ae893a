// Package ports declares what the orders module needs, in its own words: its stores
// and the capabilities of the catalog, inventory, payments and customers modules.
package ports

import (
	"context"
	"errors"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/orders/domain"
)

// Sort fields of the order list.
const (
	SortCreatedAt  = "created_at"
	SortUpdatedAt  = "updated_at"
	SortTotalPrice = "total_price"
)

// ListFilter narrows and orders the order list. Zero members do not filter.
type ListFilter struct {
	Status            string
	FinancialStatus   string
	FulfillmentStatus string
	CustomerID        string
	Email             string
	OrderNumber       int64
	MinTotal          *decimal.Decimal
	MaxTotal          *decimal.Decimal
	CreatedAfter      *time.Time
	CreatedBefore     *time.Time
	UpdatedAfter      *time.Time
	Sort              string // created_at (default), updated_at, total_price
	Desc              bool
	Offset, Limit     int
}

// OrderRepository stores orders with their line items, fulfillments, refunds and
// transactions. Methods join ctx's transaction.
type OrderRepository interface {
	// Create inserts a new order and its children. An order without a number (0) is
	// given the next one (from 1001, increasing, never twice) by the insert: inside
	// the caller's transaction, which should create the order last (decision 0232).
	Create(ctx context.Context, o *domain.Order) error
	// Get loads an order by id (ORDER_NOT_FOUND).
	Get(ctx context.Context, id string) (*domain.Order, error)
	// GetByNumber loads an order by number (ORDER_NOT_FOUND).
	GetByNumber(ctx context.Context, number int64) (*domain.Order, error)
	// Update loads the order row-locked inside the ambient transaction, lets change
	// modify it and saves it (version checked: ErrStale when another writer won).
	// When change returns ErrUnchanged nothing is written and the loaded order is
	// returned without error.
	Update(ctx context.Context, id string, change func(*domain.Order) error) (*domain.Order, error)
	// List returns a page of orders (without their children) and the total.
	List(ctx context.Context, f ListFilter) ([]*domain.Order, int64, error)
	// ProductHasOrders reports whether any line item references the product.
	ProductHasOrders(ctx context.Context, productID string) (bool, error)
	// CustomerHasOrders reports whether any order references the customer.
	CustomerHasOrders(ctx context.Context, customerID string) (bool, error)
	// ListByCustomer returns every order of a customer with its children, newest first.
	ListByCustomer(ctx context.Context, customerID string) ([]*domain.Order, error)
	// AnonymizeCustomer removes personal data from the customer's orders and detaches
	// them from the customer.
	AnonymizeCustomer(ctx context.Context, customerID string, now time.Time) (int64, error)
	// AverageTotal is the average total_price of the orders in a currency that are not
	// cancelled, other than excludeID, and how many there are.
	AverageTotal(ctx context.Context, currency, excludeID string) (decimal.Decimal, int64, error)
	// HasTransaction reports whether the order has a transaction of the payment (by
	// payments' id) of that kind and status.
	HasTransaction(ctx context.Context, orderID, paymentID string, kind domain.TransactionKind, status domain.TransactionStatus) (bool, error)
	// SalesRecorded answers, among the payments, the orders that recorded each one's
	// sale successfully (payment id → order ids), in one read.
	SalesRecorded(ctx context.Context, paymentIDs []string) (map[string][]string, error)
	// OrderIDForPayment finds the order that recorded a payment (by payments' id).
	OrderIDForPayment(ctx context.Context, paymentID string) (string, error)
}

// NoteRepository stores order notes.
type NoteRepository interface {
	Create(ctx context.Context, n *domain.Note) error
	// List returns a page of an order's notes, oldest first, and the total.
	List(ctx context.Context, orderID string, offset, limit int) ([]*domain.Note, int64, error)
	// Delete removes a note of the order (NOTE_NOT_FOUND).
	Delete(ctx context.Context, orderID, noteID string) error
	// ListAll returns every note of the order.
	ListAll(ctx context.Context, orderID string) ([]*domain.Note, error)
}

// ErrUnchanged, returned by an Update's change function, means the order is left as it
// was: nothing is written (a re-delivered fact costs its read, not a rewrite).
var ErrUnchanged = errors.New("orders: unchanged")
