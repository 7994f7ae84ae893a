package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/gocommerce/commerce/modules/tax/domain"
	"github.com/gocommerce/commerce/modules/tax/ports"
	"github.com/gocommerce/commerce/platform/db"
)

// Zones and categories are read and written as the domain's structs: their fields
// are the columns by gorm's naming (tables tax_zones, tax_categories).
const (
	zonesTable      = "tax_zones"
	categoriesTable = "tax_categories"
)

type rateRow struct {
	ID            string `gorm:"primaryKey"`
	Name          string
	TaxZoneID     string
	TaxCategoryID *string
	Rate          string
	RateType      string
	IsVAT         bool `gorm:"column:is_vat"`
	VATType       string
	B2BExempt     bool `gorm:"column:b2b_exempt"`
	ReverseCharge bool
	ValidFrom     string
	ValidUntil    *string
	Priority      int
	CreatedAt     time.Time `gorm:"autoCreateTime:false"`
	UpdatedAt     time.Time `gorm:"autoUpdateTime:false"`
}

func (rateRow) TableName() string { return "tax_rates" }

func rateRowOf(x *domain.Rate) rateRow {
	return rateRow{ID: x.ID, Name: x.Name, TaxZoneID: x.ZoneID, TaxCategoryID: db.NullString(x.CategoryID), Rate: x.Rate.String(),
		RateType: x.RateType, IsVAT: x.IsVAT, VATType: x.VATType, B2BExempt: x.B2BExempt, ReverseCharge: x.ReverseCharge,
		ValidFrom: x.ValidFrom, ValidUntil: db.NullString(x.ValidUntil), Priority: x.Priority, CreatedAt: x.CreatedAt, UpdatedAt: x.UpdatedAt}
}

func (x rateRow) toDomain() (*domain.Rate, error) {
	rate, err := decimal.NewFromString(x.Rate)
	if err != nil {
		return nil, errors.New("tax: rate " + x.ID + ": " + err.Error())
	}
	return &domain.Rate{ID: x.ID, Name: x.Name, ZoneID: x.TaxZoneID, CategoryID: db.Deref(x.TaxCategoryID), Rate: rate,
		RateType: x.RateType, IsVAT: x.IsVAT, VATType: x.VATType, B2BExempt: x.B2BExempt, ReverseCharge: x.ReverseCharge,
		ValidFrom: x.ValidFrom, ValidUntil: db.Deref(x.ValidUntil), Priority: x.Priority, CreatedAt: x.CreatedAt.UTC(), UpdatedAt: x.UpdatedAt.UTC()}, nil
}

type nexusRow struct {
	CountryCode           string `gorm:"primaryKey"`
	RegionCode            string `gorm:"primaryKey"`
	SalesThreshold        decimal.Decimal
	TransactionsThreshold int
	Registered            bool
}

func (nexusRow) TableName() string { return "tax_nexus" }

type orderRow struct {
	OrderID     string `gorm:"primaryKey"`
	CountryCode string
	RegionCode  string
	Currency    string
	Sales       decimal.Decimal
	Total       decimal.Decimal
	HasGoods    bool
	CreatedAt   time.Time `gorm:"autoCreateTime:false"`
}

func (orderRow) TableName() string { return "tax_orders" }

func (o orderRow) toPort() *ports.Order {
	return &ports.Order{OrderID: o.OrderID, CountryCode: o.CountryCode, RegionCode: o.RegionCode, Currency: o.Currency,
		Sales: o.Sales, Total: o.Total, HasGoods: o.HasGoods, CreatedAt: o.CreatedAt.UTC()}
}

type orderLineRow struct {
	OrderID string `gorm:"primaryKey"`
	LineNo  int    `gorm:"primaryKey"`
	Rate    string
	Taxable decimal.Decimal
	Tax     decimal.Decimal
}

func (orderLineRow) TableName() string { return "tax_order_lines" }

type vatRow struct {
	VATID       string `gorm:"primaryKey;column:vat_id"`
	CountryCode string
	IsValid     bool
	Name        string
	Address     string
	CheckedAt   time.Time
}

func (vatRow) TableName() string { return "tax_vat_checks" }

// Repository implements ports.Repository.
type Repository struct{ db *db.DB }

var _ ports.Repository = (*Repository)(nil)

// NewRepository builds the repository.
func NewRepository(d *db.DB) *Repository { return &Repository{db: d} }

// Zones reads every zone.
func (r *Repository) Zones(ctx context.Context) ([]*domain.Zone, error) {
	zones, err := db.Find[*domain.Zone](r.db.Conn(ctx).Table(zonesTable).Order("code"), "tax: zones")
	for _, z := range zones {
		z.CreatedAt, z.UpdatedAt = z.CreatedAt.UTC(), z.UpdatedAt.UTC()
	}
	return zones, err
}

// Rates reads every rate.
func (r *Repository) Rates(ctx context.Context) ([]*domain.Rate, error) {
	rows, err := db.Find[rateRow](r.db.Conn(ctx).Order("id"), "tax: rates")
	if err != nil {
		return nil, err
	}
	return db.MapErr(rows, rateRow.toDomain)
}

// Categories reads every category by name.
func (r *Repository) Categories(ctx context.Context) ([]*domain.Category, error) {
	return db.Find[*domain.Category](r.db.Conn(ctx).Table(categoriesTable).Order("name"), "tax: categories")
}

type salesRow struct {
	CountryCode  string `gorm:"primaryKey"`
	RegionCode   string `gorm:"primaryKey"`
	Year         int    `gorm:"primaryKey"`
	Sales        decimal.Decimal
	Transactions int
}

func (salesRow) TableName() string { return "tax_nexus_sales" }

// Nexus reads each state's rule with the higher of the years' recorded sales and
// transaction counts.
func (r *Repository) Nexus(ctx context.Context, years ...int) ([]*domain.Nexus, error) {
	rows, err := db.Find[nexusRow](r.db.Conn(ctx), "tax: nexus")
	if err != nil {
		return nil, err
	}
	sales, err := db.Find[salesRow](r.db.Conn(ctx).Where("year IN ?", years), "tax: nexus sales")
	if err != nil {
		return nil, err
	}
	index := map[string]*domain.Nexus{}
	out := db.Map(rows, func(n nexusRow) *domain.Nexus {
		d := &domain.Nexus{CountryCode: n.CountryCode, RegionCode: n.RegionCode, SalesThreshold: n.SalesThreshold,
			TransactionsThreshold: n.TransactionsThreshold, Registered: n.Registered}
		index[n.CountryCode+"-"+n.RegionCode] = d
		return d
	})
	for _, s := range sales {
		if n := index[s.CountryCode+"-"+s.RegionCode]; n != nil {
			n.Sales = decimal.Max(n.Sales, s.Sales)
			n.Transactions = max(n.Transactions, s.Transactions)
		}
	}
	return out, nil
}

// errNoSalesRow: the row addSales has just made sure of is not there.
var errNoSalesRow = errors.New("tax: nexus sales: row missing")

// addSales adds an order to its state's figures of the year (SQLite: the row locked
// by the one writer, so concurrent orders to one state add up; PostgreSQL adds in
// recordOrderPG's statement).
func (r *Repository) addSales(ctx context.Context, o *ports.Order) (salesRow, error) {
	key := salesRow{CountryCode: o.CountryCode, RegionCode: o.RegionCode, Year: o.CreatedAt.Year(), Sales: o.Sales, Transactions: 1}
	conn := r.db.Conn(ctx)
	// SQLite stores money as text: the sum is made here, under the row's write lock
	// (SQLite has one writer).
	zero := salesRow{CountryCode: key.CountryCode, RegionCode: key.RegionCode, Year: key.Year, Sales: decimal.Zero}
	if _, err := db.InsertNew(conn, &zero, "tax: nexus sales"); err != nil {
		return key, err
	}
	where := func(q *gorm.DB) *gorm.DB {
		return q.Where("country_code = ? AND region_code = ? AND year = ?", key.CountryCode, key.RegionCode, key.Year)
	}
	row, err := db.First[salesRow](where(conn.Clauses(clause.Locking{Strength: "UPDATE"})), errNoSalesRow, "tax: nexus sales")
	if err != nil {
		return key, err
	}
	key.Sales, key.Transactions = row.Sales.Add(o.Sales), row.Transactions+1
	return key, db.Done(where(conn.Model(&salesRow{})).
		Updates(map[string]any{"sales": key.Sales, "transactions": key.Transactions}), "tax: nexus sales")
}

// CreateZone inserts a zone.
func (r *Repository) CreateZone(ctx context.Context, z *domain.Zone) error {
	return db.Insert(r.db.Conn(ctx).Table(zonesTable), z, domain.ErrZoneExists, "tax: create zone")
}

// CreateRate inserts a rate.
func (r *Repository) CreateRate(ctx context.Context, x *domain.Rate) error {
	row := rateRowOf(x)
	return db.Insert(r.db.Conn(ctx), &row, nil, "tax: create rate")
}

// Register marks the merchant registered in a state.
func (r *Repository) Register(ctx context.Context, country, region string) error {
	row := nexusRow{CountryCode: country, RegionCode: region, Registered: true}
	return db.Done(r.db.Conn(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "country_code"}, {Name: "region_code"}},
		DoUpdates: clause.Assignments(map[string]any{"registered": true}),
	}).Create(&row), "tax: register")
}

// RecordOrder stores an order's taxes once, and adds a US order to its state's
// figures; it reports whether the order is new. It is atomic on its own: one
// statement on PostgreSQL, a transaction (joining ctx's) on SQLite.
func (r *Repository) RecordOrder(ctx context.Context, o *ports.Order) (ports.Recorded, error) {
	if r.db.Dialect() == db.Postgres {
		return r.recordOrderPG(ctx, o)
	}
	var out ports.Recorded
	err := r.db.InTx(ctx, func(ctx context.Context) error {
		var err error
		out, err = r.recordOrder(ctx, o)
		return err
	})
	return out, err
}

// recordOrderPG is RecordOrder in one statement: the order's insert (nothing when it
// was recorded before), its lines and its state's figures only when it was new.
func (r *Repository) recordOrderPG(ctx context.Context, o *ports.Order) (ports.Recorded, error) {
	q := `WITH o AS (INSERT INTO tax_orders (order_id, country_code, region_code, currency, sales, total, has_goods, created_at)
		VALUES (?, ?, ?, ?, CAST(? AS numeric), CAST(? AS numeric), ?, ?) ON CONFLICT (order_id) DO NOTHING RETURNING order_id)`
	args := []any{o.OrderID, o.CountryCode, o.RegionCode, o.Currency, o.Sales.String(), o.Total.String(), o.HasGoods, o.CreatedAt}
	if len(o.Lines) > 0 {
		var vals strings.Builder
		for i, l := range o.Lines {
			if i > 0 {
				vals.WriteString(", ")
			}
			vals.WriteString("(CAST(? AS integer), CAST(? AS text), CAST(? AS numeric), CAST(? AS numeric))")
			args = append(args, i+1, l.Rate.String(), l.Taxable.String(), l.Tax.String())
		}
		q += `, l AS (INSERT INTO tax_order_lines (order_id, line_no, rate, taxable, tax)
			SELECT o.order_id, v.line_no, v.rate, v.taxable, v.tax FROM o, (VALUES ` + vals.String() + `) v(line_no, rate, taxable, tax))`
	}
	us := o.CountryCode == "US" && o.RegionCode != ""
	if us {
		q += `, s AS (INSERT INTO tax_nexus_sales (country_code, region_code, year, sales, transactions)
			SELECT ?, ?, CAST(? AS integer), CAST(? AS numeric), 1 FROM o
			ON CONFLICT (country_code, region_code, year) DO UPDATE SET sales = tax_nexus_sales.sales + excluded.sales,
				transactions = tax_nexus_sales.transactions + 1
			RETURNING sales, transactions)
			SELECT (SELECT COUNT(*) FROM o), COALESCE((SELECT sales FROM s), 0), COALESCE((SELECT transactions FROM s), 0)`
		args = append(args, o.CountryCode, o.RegionCode, o.CreatedAt.Year(), o.Sales.String())
	} else {
		q += ` SELECT (SELECT COUNT(*) FROM o), CAST(0 AS numeric), 0`
	}
	var (
		n     int64
		sales decimal.Decimal
		txs   int
	)
	if err := r.db.QueryRow(ctx, r.db.Rebind(q), args, &n, db.Decimal{D: &sales}, &txs); err != nil {
		return ports.Recorded{}, fmt.Errorf("tax: record order: %w", err)
	}
	if n == 0 {
		return ports.Recorded{}, nil // recorded before: nothing added
	}
	out := ports.Recorded{New: true}
	if us {
		out.Sales, out.Transactions = sales, txs
	}
	return out, nil
}

// recordOrder is RecordOrder statement by statement, in the caller's transaction.
func (r *Repository) recordOrder(ctx context.Context, o *ports.Order) (ports.Recorded, error) {
	row := orderRow{OrderID: o.OrderID, CountryCode: o.CountryCode, RegionCode: o.RegionCode, Currency: o.Currency,
		Sales: o.Sales, Total: o.Total, HasGoods: o.HasGoods, CreatedAt: o.CreatedAt}
	if stored, err := db.InsertNew(r.db.Conn(ctx), &row, "tax: record order"); err != nil || !stored {
		return ports.Recorded{}, err // recorded before: nothing to add
	}
	out := ports.Recorded{New: true}
	if o.CountryCode == "US" && o.RegionCode != "" {
		sales, err := r.addSales(ctx, o)
		if err != nil {
			return out, err
		}
		out.Sales, out.Transactions = sales.Sales, sales.Transactions
	}
	if len(o.Lines) == 0 {
		return out, nil
	}
	lines := make([]orderLineRow, len(o.Lines))
	for i, l := range o.Lines {
		lines[i] = orderLineRow{OrderID: o.OrderID, LineNo: i + 1, Rate: l.Rate.String(), Taxable: l.Taxable, Tax: l.Tax}
	}
	return out, db.Insert(r.db.Conn(ctx), &lines, nil, "tax: record order lines")
}

// Orders reads the orders created in [from, to) with their lines.
func (r *Repository) Orders(ctx context.Context, from, to time.Time) ([]*ports.Order, error) {
	rows, err := db.Find[orderRow](r.db.Conn(ctx).Where("created_at >= ? AND created_at < ?", from, to).Order("created_at, order_id"), "tax: orders")
	if err != nil {
		return nil, err
	}
	out := db.Map(rows, orderRow.toPort)
	index := make(map[string]*ports.Order, len(out))
	idList := make([]string, len(out))
	for i, o := range out {
		index[o.OrderID], idList[i] = o, o.OrderID
	}
	for start := 0; start < len(idList); start += 500 {
		batch := idList[start:min(start+500, len(idList))]
		lines, err := db.Find[orderLineRow](r.db.Conn(ctx).Where("order_id IN ?", batch).Order("order_id, line_no"), "tax: order lines")
		if err != nil {
			return nil, err
		}
		for _, l := range lines {
			rate, err := decimal.NewFromString(l.Rate)
			if err != nil {
				return nil, errors.New("tax: order line rate: " + err.Error())
			}
			o := index[l.OrderID]
			o.Lines = append(o.Lines, ports.OrderTax{Rate: rate, Taxable: l.Taxable, Tax: l.Tax})
		}
	}
	return out, nil
}

// CachedVAT returns a VIES answer stored after since (nil when none is).
func (r *Repository) CachedVAT(ctx context.Context, vatID string, since time.Time) (*ports.VATCheck, error) {
	rows, err := db.Find[vatRow](r.db.Conn(ctx).Where("vat_id = ? AND checked_at > ?", vatID, since).Limit(1), "tax: vat cache")
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	v := rows[0]
	return &ports.VATCheck{Valid: v.IsValid, Name: v.Name, Address: v.Address, CheckedAt: v.CheckedAt.UTC(), CountryCode: v.CountryCode}, nil
}

// CacheVAT stores a VIES answer.
func (r *Repository) CacheVAT(ctx context.Context, vatID string, c *ports.VATCheck) error {
	row := vatRow{VATID: vatID, CountryCode: c.CountryCode, IsValid: c.Valid, Name: c.Name, Address: c.Address, CheckedAt: c.CheckedAt}
	return db.Done(r.db.Conn(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "vat_id"}},
		DoUpdates: clause.AssignmentColumns([]string{"country_code", "is_valid", "name", "address", "checked_at"}),
	}).Create(&row), "tax: cache vat")
}
