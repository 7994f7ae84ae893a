// Package ports declares what the tax module needs: its store, the EU VIES service and
// the tax provider (the built-in engine or an external tax service), in its own words.
package ports

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/tax/api"
	"github.com/gocommerce/commerce/modules/tax/domain"
)

// Repository stores the tax records. Every method uses the transaction ctx carries.
type Repository interface {
	// Zones, Rates, Categories and Nexus read every record (the engine's book).
	Zones(ctx context.Context) ([]*domain.Zone, error)
	Rates(ctx context.Context) ([]*domain.Rate, error)
	Categories(ctx context.Context) ([]*domain.Category, error)
	// Nexus returns each state's rule with the higher of the years' recorded figures.
	Nexus(ctx context.Context, years ...int) ([]*domain.Nexus, error)
	// CreateZone inserts a zone; a code in use is domain.ErrZoneExists.
	CreateZone(ctx context.Context, z *domain.Zone) error
	// CreateRate inserts a rate.
	CreateRate(ctx context.Context, r *domain.Rate) error
	// Register marks the merchant registered in a state (inserting its nexus row).
	Register(ctx context.Context, country, region string) error
	// RecordOrder stores an order's taxes once (idempotent per order id) and adds a
	// US order to its state's yearly figures; it reports whether the order was new and
	// the state's figures for the order's year after it (US orders only). It is atomic
	// on its own (the caller needs no transaction).
	RecordOrder(ctx context.Context, o *Order) (Recorded, error)
	// Orders returns the recorded orders created in [from, to) with their tax lines.
	Orders(ctx context.Context, from, to time.Time) ([]*Order, error)
	// CachedVAT returns a VIES answer stored after since, or nil.
	CachedVAT(ctx context.Context, vatID string, since time.Time) (*VATCheck, error)
	// CacheVAT stores a VIES answer (replacing an older one).
	CacheVAT(ctx context.Context, vatID string, c *VATCheck) error
}

// Order is an order's tax record, taken from order.created.
type Order struct {
	OrderID     string
	CountryCode string
	RegionCode  string
	Currency    string
	Sales       decimal.Decimal // the order's goods and services before tax
	Total       decimal.Decimal
	HasGoods    bool // a line requires shipping
	CreatedAt   time.Time
	Lines       []OrderTax
}

// Recorded is what recording an order did: New when it was not recorded before; for
// a new US order, the state's Sales and Transactions of the order's year with it.
type Recorded struct {
	New          bool
	Sales        decimal.Decimal
	Transactions int
}

// OrderTax is one tax line of an order.
type OrderTax struct {
	Rate    decimal.Decimal
	Taxable decimal.Decimal
	Tax     decimal.Decimal
}

// VATCheck is VIES's answer about one VAT id.
type VATCheck struct {
	Valid       bool
	Name        string
	Address     string
	CheckedAt   time.Time
	CountryCode string
}

// VIES checks VAT ids with the EU VIES service. An outage, a timeout or a busy member
// state is domain.ErrVIESUnavailable.
type VIES interface {
	Check(ctx context.Context, id domain.VATID) (*VATCheck, error)
}

// Provider computes the tax of a calculation: the built-in engine on the book, or an
// external tax service (tax.provider).
type Provider interface {
	Calculate(ctx context.Context, b *domain.Book, s domain.Settings, in domain.Input) (api.Result, error)
}
