// Package ports declares what the carts module needs: its store and the capabilities
// of other modules (catalog, coupons, customers' addresses, tax, shipping, automatic
// discounts), in the carts module's words.
package ports

import (
	"context"
	"errors"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/carts/domain"
)

// CartRepository stores carts with their items. Every method uses the transaction
// carried by ctx.
type CartRepository interface {
	// Create inserts a cart (and its items); a second active cart of a customer is
	// ErrActiveCartExists.
	Create(ctx context.Context, c *domain.Cart) error
	// Get returns a cart with its items, or domain.ErrCartNotFound.
	Get(ctx context.Context, id domain.CartID) (*domain.Cart, error)
	// FindBySessionHash returns the guest cart with the session token hash, or
	// domain.ErrCartNotFound.
	FindBySessionHash(ctx context.Context, hash string) (*domain.Cart, error)
	// ActiveForCustomer returns the customer's active cart (possibly past expires_at),
	// or domain.ErrCartNotFound.
	ActiveForCustomer(ctx context.Context, customerID string) (*domain.Cart, error)
	// Update loads the cart row-locked (where the engine can) inside ctx's
	// transaction, lets change modify it and saves the cart and its items (inserted,
	// changed and removed ones). change gets the context to run its own statements
	// with (the transaction's): it must not use another.
	Update(ctx context.Context, id domain.CartID, change func(ctx context.Context, c *domain.Cart) error) (*domain.Cart, error)
	// Convert marks an active, unexpired cart converted for the order in one statement
	// and returns it; false (nothing changed) when it is not active or the store has
	// no such statement: Update with Cart.MarkConverted is the general path.
	Convert(ctx context.Context, id domain.CartID, orderID string, now time.Time) (*domain.Cart, bool, error)
	// CartWriter is the write path of changes that are their own use case.
	CartWriter
	// Delete removes a cart and its items.
	Delete(ctx context.Context, id domain.CartID) error
	// ExpireInactive marks active carts whose expires_at is at or before now expired
	// and answers how many.
	ExpireInactive(ctx context.Context, now time.Time) (int64, error)
	// ForCustomer returns every cart of the customer, newest first.
	ForCustomer(ctx context.Context, customerID string) ([]*domain.Cart, error)
	// IdleCustomerCarts returns up to limit active customer carts with items, not
	// expired at now, last changed before before and after the cursor (afterAt,
	// afterID), ordered by last change then id, without their items.
	IdleCustomerCarts(ctx context.Context, before, now, afterAt time.Time, afterID string, limit int) ([]*domain.Cart, error)
}

// CartWriter writes a change that is its own use case (adding an item) with the events
// it returns, atomically. Two implementations (adapters/postgres, docs/decisions/0119):
// the plain one, Update and the outbox's Publish in one transaction; and the optimised
// one of docs/decisions/0089, a versioned statement without a lock, with a cache of the
// carts last written and group commit, each of which configuration can switch off
// (carts.write); it commits synchronously (docs/decisions/0118).
type CartWriter interface {
	// Apply may read the cart without a lock and run change more than once (on a
	// fresh read each time, when another change came first), so change must depend
	// only on the cart it is given, and run its statements with the context it is
	// given (it may be a transaction's). In ctx's transaction, it is Update with the
	// events published in that transaction.
	Apply(ctx context.Context, id domain.CartID, change func(ctx context.Context, c *domain.Cart) ([]Event, error)) (*domain.Cart, error)
}

// Event is an event a change stores with the cart (see CartWriter).
type Event struct {
	Type        string
	AggregateID string
	Data        any
}

// ErrActiveCartExists is returned by Create when the customer already has an active
// cart (the unique index decides under concurrency).
var ErrActiveCartExists = errors.New("carts: the customer already has an active cart")

// Catalog is what carts needs from the catalog.
type Catalog interface {
	// Product returns a product variant for the cart (the default variant when
	// variantID is ""): domain.ErrProductNotFound or domain.ErrVariantNotFound.
	Product(ctx context.Context, productID, variantID string) (domain.Product, error)
	// Collections returns the collection ids of each product (for coupon
	// restrictions); products without collections may be absent.
	Collections(ctx context.Context, productIDs []string) (map[string][]string, error)
}

// CouponLine is a cart line for coupon evaluation.
type CouponLine struct {
	ItemID        domain.ItemID
	ProductID     string
	VariantID     string
	CollectionIDs []string // when known (see CouponQuery.Collections)
	Quantity      int
	UnitPrice     decimal.Decimal
}

// CouponQuery asks what a coupon does to the cart.
type CouponQuery struct {
	Code          string
	Lines         []CouponLine
	Subtotal      decimal.Decimal
	ShippingTotal decimal.Decimal // before coupon discounts
	CustomerID    string
	Email         string
	Currency      string
	// Applied are the other coupons on the cart.
	Applied               []string
	HasAutomaticDiscounts bool
	// Collections, when set, reads the collections of the lines' products (by product
	// id); the coupons module calls it only for a coupon restricted to collections.
	Collections func(ctx context.Context) (map[string][]string, error)
}

// CouponResult is the answer: valid with its discounts, or the coupon error code.
type CouponResult struct {
	Valid        bool
	ErrorCode    string
	ErrorMessage string
	CouponID     string
	Code         string // as the coupon spells it ("" when not found)
	Type         string
	Items        map[domain.ItemID]decimal.Decimal
	Shipping     decimal.Decimal
	Amount       decimal.Decimal
}

// CouponNotice describes a coupon applied to or removed from a cart.
type CouponNotice struct {
	Code string
	// CouponID and Type are set when the coupon was evaluated in the same transaction
	// (the coupons module then need not read it again).
	CouponID   string
	Type       string
	CartID     domain.CartID
	CustomerID string
	Amount     decimal.Decimal
	Currency   string
}

// Coupons is what carts needs from the coupons module.
type Coupons interface {
	Evaluate(ctx context.Context, q CouponQuery) (CouponResult, error)
	// Applied and Removed publish the coupon's own events (coupon.applied,
	// coupon.removed) in ctx's transaction.
	Applied(ctx context.Context, n CouponNotice) error
	Removed(ctx context.Context, n CouponNotice) error
}

// TaxLine is a cart line for tax calculation (amount after discounts).
type TaxLine struct {
	ItemID           domain.ItemID
	ProductID        string
	VariantID        string
	Quantity         int
	Amount           decimal.Decimal
	RequiresShipping bool
}

// Address is where a cart ships, as tax reads it: Country is ISO 3166-1 alpha-2,
// Region the state or province.
type Address struct {
	Country    string
	Region     string
	PostalCode string
	City       string
}

// TaxQuery asks for the tax of a cart shipped to an address.
type TaxQuery struct {
	CartID            domain.CartID
	Currency          string
	CustomerID        string
	ShippingAddressID string   // "" when none was given
	ShippingAddress   *Address // the saved address ShippingAddressID names; nil when none
	Lines             []TaxLine
	ShippingTotal     decimal.Decimal
}

// TaxJurisdiction is one line of the tax breakdown.
type TaxJurisdiction struct {
	Jurisdiction string
	Rate         decimal.Decimal
	Amount       decimal.Decimal
}

// TaxResult is the tax of a cart. Included is true when the prices already contain
// the tax (tax.default_tax_included): the cart's total then does not add it.
type TaxResult struct {
	Total     decimal.Decimal
	Breakdown []TaxJurisdiction
	Included  bool
}

// Tax is what carts needs from the tax module (adapters/taxapi; no address, no tax).
type Tax interface {
	Calculate(ctx context.Context, q TaxQuery) (TaxResult, error)
}

// Addresses is what carts needs from the customers module: a customer's saved address
// (a cart's totals read a shipping address only if it is its customer's:
// docs/decisions/0101).
type Addresses interface {
	// CustomerAddress returns addressID when it is one of the customer's saved
	// addresses; nil (and no error) for anyone else's address or an unknown id.
	CustomerAddress(ctx context.Context, customerID, addressID string) (*Address, error)
}

// AutomaticDiscounts reports automatic discounts on a cart (coupons do not combine
// with them). None exist yet; the default adapter answers false.
type AutomaticDiscounts interface {
	Has(ctx context.Context, c *domain.Cart) (bool, error)
}
