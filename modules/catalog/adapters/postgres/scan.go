package postgres

import (
	"context"
	"database/sql"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
	"gorm.io/gorm"

	"github.com/gocommerce/commerce/platform/db"
)

// The hot reads (a product by id, a list page, a product with its variants for carts)
// scan their rows explicitly: gorm's Find costs as much CPU as the query itself, in
// reflection over the row struct, per-column name mapping and callbacks
// (docs/performance.md, finding 6).

// connPool is where ctx's statements run: the transaction ctx carries (*sql.Tx), or the
// pool (*sql.DB). Statements sent through it skip gorm's statement building and
// callbacks, so they must use the dialect's bind parameters (bind).
func connPool(ctx context.Context, d *db.DB) gorm.ConnPool {
	if db.InTransaction(ctx) {
		return d.Conn(ctx).Statement.ConnPool
	}
	return d.Gorm().Statement.ConnPool
}

// bind rewrites the ? parameters of query as $1, $2 ... for PostgreSQL (SQLite takes ?
// as written). The catalog's SQL has no ? inside literals.
func bind(d db.Dialect, query string) string {
	if d != db.Postgres {
		return query
	}
	var b strings.Builder
	b.Grow(len(query) + 8)
	n := 0
	for _, r := range query {
		if r != '?' {
			b.WriteRune(r)
			continue
		}
		n++
		b.WriteByte('$')
		b.WriteString(strconv.Itoa(n))
	}
	return b.String()
}

// params is n comma-separated ? parameters (an IN list).
func params(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// dest lists the scan destinations of productColumns, in order.
func (r *productRow) dest() []any {
	return []any{
		&r.ID, &r.Title, &r.Slug, &r.Description, &r.ShortDescription, &r.ProductType, &r.Vendor, &r.Tags,
		&r.TagsText, &r.Status, &r.IsFeatured, &r.Price, &r.CompareAtPrice, &r.CostPrice, &r.Currency, &r.Taxable,
		&r.RequiresShipping, &r.Weight, &r.WeightUnit, &r.InventoryQuantity, &r.InventoryPolicy,
		&r.InventoryManagement, &r.LowStockThreshold, &r.HasVariants, &r.SEOTitle, &r.SEODescription,
		&r.MetaFields, &r.CreatedAt, &r.UpdatedAt, &r.PublishedAt,
	}
}

// collectionColumns are the columns of collectionRow, in the order of its dest.
const collectionColumns = "collections.id, collections.title, collections.slug, collections.description, " +
	"collections.collection_type, collections.rules, collections.is_active, collections.seo_title, " +
	"collections.seo_description, collections.created_at, collections.updated_at"

func (r *collectionRow) dest() []any {
	return []any{
		&r.ID, &r.Title, &r.Slug, &r.Description, &r.CollectionType, &r.Rules, &r.IsActive, &r.SEOTitle,
		&r.SEODescription, &r.CreatedAt, &r.UpdatedAt,
	}
}

// joinedVariantColumns are a variant's columns as the right side of a LEFT JOIN (alias
// v): all NULL for a product without variants.
const joinedVariantColumns = "v.id, v.product_id, v.title, v.sku, v.barcode, v.price, v.compare_at_price, v.cost_price, " +
	"v.inventory_quantity, v.inventory_policy, v.weight, v.weight_unit, v.requires_shipping, v.is_default, v.options, " +
	"v.created_at, v.updated_at"

// joinedVariant scans joinedVariantColumns.
type joinedVariant struct {
	ID, ProductID, Title, SKU, Barcode sql.NullString
	Price, CompareAtPrice, CostPrice   decimal.NullDecimal
	InventoryQuantity                  sql.NullInt64
	InventoryPolicy                    sql.NullString
	Weight                             decimal.NullDecimal
	WeightUnit                         sql.NullString
	RequiresShipping, IsDefault        sql.NullBool
	Options                            sql.NullString
	CreatedAt, UpdatedAt               sql.NullTime
}

func (j *joinedVariant) dest() []any {
	return []any{
		&j.ID, &j.ProductID, &j.Title, &j.SKU, &j.Barcode, &j.Price, &j.CompareAtPrice, &j.CostPrice,
		&j.InventoryQuantity, &j.InventoryPolicy, &j.Weight, &j.WeightUnit, &j.RequiresShipping, &j.IsDefault,
		&j.Options, &j.CreatedAt, &j.UpdatedAt,
	}
}

// row is the variant, or false when the join found none.
func (j *joinedVariant) row() (variantRow, bool) {
	if !j.ID.Valid {
		return variantRow{}, false
	}
	return variantRow{
		ID: j.ID.String, ProductID: j.ProductID.String, Title: j.Title.String, SKU: j.SKU.String,
		Barcode: j.Barcode.String, Price: j.Price.Decimal, CompareAtPrice: j.CompareAtPrice, CostPrice: j.CostPrice,
		InventoryQuantity: int(j.InventoryQuantity.Int64), InventoryPolicy: j.InventoryPolicy.String,
		Weight: j.Weight.Decimal, WeightUnit: j.WeightUnit.String, RequiresShipping: j.RequiresShipping.Bool,
		IsDefault: j.IsDefault.Bool, Options: j.Options.String, CreatedAt: j.CreatedAt.Time, UpdatedAt: j.UpdatedAt.Time,
	}, true
}
