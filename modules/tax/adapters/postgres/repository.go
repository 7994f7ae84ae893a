package postgres

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/shopspring/decimal"
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

func wrap(what string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("tax: %s: %w", what, err)
}

// Zones reads every zone.
func (r *Repository) Zones(ctx context.Context) ([]*domain.Zone, error) {
	var zones []*domain.Zone
	if err := r.db.Conn(ctx).Table(zonesTable).Order("code").Find(&zones).Error; err != nil {
		return nil, wrap("zones", err)
	}
	for _, z := range zones {
		z.CreatedAt, z.UpdatedAt = z.CreatedAt.UTC(), z.UpdatedAt.UTC()
	}
	return zones, nil
}

// Rates reads every rate.
func (r *Repository) Rates(ctx context.Context) ([]*domain.Rate, error) {
	var rows []rateRow
	if err := r.db.Conn(ctx).Order("id").Find(&rows).Error; err != nil {
		return nil, wrap("rates", err)
	}
	out := make([]*domain.Rate, 0, len(rows))
	for _, x := range rows {
		rate, err := decimal.NewFromString(x.Rate)
		if err != nil {
			return nil, wrap("rate "+x.ID, err)
		}
		d := &domain.Rate{ID: x.ID, Name: x.Name, ZoneID: x.TaxZoneID, Rate: rate, RateType: x.RateType, IsVAT: x.IsVAT,
			VATType: x.VATType, B2BExempt: x.B2BExempt, ReverseCharge: x.ReverseCharge, ValidFrom: x.ValidFrom,
			Priority: x.Priority, CreatedAt: x.CreatedAt.UTC(), UpdatedAt: x.UpdatedAt.UTC()}
		if x.TaxCategoryID != nil {
			d.CategoryID = *x.TaxCategoryID
		}
		if x.ValidUntil != nil {
			d.ValidUntil = *x.ValidUntil
		}
		out = append(out, d)
	}
	return out, nil
}

// Categories reads every category by name.
func (r *Repository) Categories(ctx context.Context) ([]*domain.Category, error) {
	var cats []*domain.Category
	if err := r.db.Conn(ctx).Table(categoriesTable).Order("name").Find(&cats).Error; err != nil {
		return nil, wrap("categories", err)
	}
	return cats, nil
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
	var rows []nexusRow
	if err := r.db.Conn(ctx).Find(&rows).Error; err != nil {
		return nil, wrap("nexus", err)
	}
	var sales []salesRow
	if err := r.db.Conn(ctx).Where("year IN ?", years).Find(&sales).Error; err != nil {
		return nil, wrap("nexus sales", err)
	}
	out := make([]*domain.Nexus, len(rows))
	index := map[string]*domain.Nexus{}
	for i, n := range rows {
		out[i] = &domain.Nexus{CountryCode: n.CountryCode, RegionCode: n.RegionCode, SalesThreshold: n.SalesThreshold,
			TransactionsThreshold: n.TransactionsThreshold, Registered: n.Registered}
		index[n.CountryCode+"-"+n.RegionCode] = out[i]
	}
	for _, s := range sales {
		if n := index[s.CountryCode+"-"+s.RegionCode]; n != nil {
			n.Sales = decimal.Max(n.Sales, s.Sales)
			n.Transactions = max(n.Transactions, s.Transactions)
		}
	}
	return out, nil
}

// addSales adds an order to its state's figures of the year (the row locked, so
// concurrent orders to one state add up).
func (r *Repository) addSales(ctx context.Context, o *ports.Order) error {
	key := salesRow{CountryCode: o.CountryCode, RegionCode: o.RegionCode, Year: o.CreatedAt.Year()}
	conn := r.db.Conn(ctx)
	if err := conn.Clauses(clause.OnConflict{DoNothing: true}).Create(&key).Error; err != nil {
		return wrap("nexus sales", err)
	}
	var row salesRow
	err := conn.Clauses(clause.Locking{Strength: "UPDATE"}).
		Where("country_code = ? AND region_code = ? AND year = ?", key.CountryCode, key.RegionCode, key.Year).Take(&row).Error
	if err != nil {
		return wrap("nexus sales", err)
	}
	err = conn.Model(&salesRow{}).Where("country_code = ? AND region_code = ? AND year = ?", key.CountryCode, key.RegionCode, key.Year).
		Updates(map[string]any{"sales": row.Sales.Add(o.Sales), "transactions": row.Transactions + 1}).Error
	return wrap("nexus sales", err)
}

// CreateZone inserts a zone.
func (r *Repository) CreateZone(ctx context.Context, z *domain.Zone) error {
	err := r.db.Conn(ctx).Table(zonesTable).Create(z).Error
	if db.IsDuplicate(err) {
		return domain.ErrZoneExists
	}
	return wrap("create zone", err)
}

// CreateRate inserts a rate.
func (r *Repository) CreateRate(ctx context.Context, x *domain.Rate) error {
	row := rateRow{ID: x.ID, Name: x.Name, TaxZoneID: x.ZoneID, Rate: x.Rate.String(), RateType: x.RateType, IsVAT: x.IsVAT,
		VATType: x.VATType, B2BExempt: x.B2BExempt, ReverseCharge: x.ReverseCharge, ValidFrom: x.ValidFrom,
		Priority: x.Priority, CreatedAt: x.CreatedAt, UpdatedAt: x.UpdatedAt}
	if x.CategoryID != "" {
		row.TaxCategoryID = &x.CategoryID
	}
	if x.ValidUntil != "" {
		row.ValidUntil = &x.ValidUntil
	}
	return wrap("create rate", r.db.Conn(ctx).Create(&row).Error)
}

// Register marks the merchant registered in a state.
func (r *Repository) Register(ctx context.Context, country, region string) error {
	row := nexusRow{CountryCode: country, RegionCode: region, Registered: true}
	err := r.db.Conn(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "country_code"}, {Name: "region_code"}},
		DoUpdates: clause.Assignments(map[string]any{"registered": true}),
	}).Create(&row).Error
	return wrap("register", err)
}

// RecordOrder stores an order's taxes once, and adds a US order to its state's
// figures; it reports whether the order is new.
func (r *Repository) RecordOrder(ctx context.Context, o *ports.Order) (bool, error) {
	row := orderRow{OrderID: o.OrderID, CountryCode: o.CountryCode, RegionCode: o.RegionCode, Currency: o.Currency,
		Sales: o.Sales, Total: o.Total, HasGoods: o.HasGoods, CreatedAt: o.CreatedAt}
	res := r.db.Conn(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&row)
	if res.Error != nil || res.RowsAffected == 0 {
		return false, wrap("record order", res.Error) // recorded before: nothing to add
	}
	if o.CountryCode == "US" && o.RegionCode != "" {
		if err := r.addSales(ctx, o); err != nil {
			return false, err
		}
	}
	for i, l := range o.Lines {
		line := orderLineRow{OrderID: o.OrderID, LineNo: i + 1, Rate: l.Rate.String(), Taxable: l.Taxable, Tax: l.Tax}
		if err := r.db.Conn(ctx).Create(&line).Error; err != nil {
			return false, wrap("record order line "+strconv.Itoa(i+1), err)
		}
	}
	return true, nil
}

// Orders reads the orders created in [from, to) with their lines.
func (r *Repository) Orders(ctx context.Context, from, to time.Time) ([]*ports.Order, error) {
	var rows []orderRow
	if err := r.db.Conn(ctx).Where("created_at >= ? AND created_at < ?", from, to).Order("created_at, order_id").Find(&rows).Error; err != nil {
		return nil, wrap("orders", err)
	}
	out := make([]*ports.Order, len(rows))
	index := map[string]*ports.Order{}
	idList := make([]string, len(rows))
	for i, o := range rows {
		out[i] = &ports.Order{OrderID: o.OrderID, CountryCode: o.CountryCode, RegionCode: o.RegionCode, Currency: o.Currency,
			Sales: o.Sales, Total: o.Total, HasGoods: o.HasGoods, CreatedAt: o.CreatedAt.UTC()}
		index[o.OrderID], idList[i] = out[i], o.OrderID
	}
	for start := 0; start < len(idList); start += 500 {
		var lines []orderLineRow
		batch := idList[start:min(start+500, len(idList))]
		if err := r.db.Conn(ctx).Where("order_id IN ?", batch).Order("order_id, line_no").Find(&lines).Error; err != nil {
			return nil, wrap("order lines", err)
		}
		for _, l := range lines {
			rate, err := decimal.NewFromString(l.Rate)
			if err != nil {
				return nil, wrap("order line rate", err)
			}
			o := index[l.OrderID]
			o.Lines = append(o.Lines, ports.OrderTax{Rate: rate, Taxable: l.Taxable, Tax: l.Tax})
		}
	}
	return out, nil
}

// CachedVAT returns a VIES answer stored after since.
func (r *Repository) CachedVAT(ctx context.Context, vatID string, since time.Time) (*ports.VATCheck, error) {
	var rows []vatRow
	if err := r.db.Conn(ctx).Where("vat_id = ? AND checked_at > ?", vatID, since).Limit(1).Find(&rows).Error; err != nil {
		return nil, wrap("vat cache", err)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	v := rows[0]
	return &ports.VATCheck{Valid: v.IsValid, Name: v.Name, Address: v.Address, CheckedAt: v.CheckedAt.UTC(), CountryCode: v.CountryCode}, nil
}

// CacheVAT stores a VIES answer.
func (r *Repository) CacheVAT(ctx context.Context, vatID string, c *ports.VATCheck) error {
	row := vatRow{VATID: vatID, CountryCode: c.CountryCode, IsValid: c.Valid, Name: c.Name, Address: c.Address, CheckedAt: c.CheckedAt}
	err := r.db.Conn(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "vat_id"}},
		DoUpdates: clause.AssignmentColumns([]string{"country_code", "is_valid", "name", "address", "checked_at"}),
	}).Create(&row).Error
	return wrap("cache vat", err)
}
