package postgres

import (
	"database/sql"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/db"
)

// The hot reads (a product by id, a list page, a product with its variants for carts)
// scan their rows explicitly through db.QueryRow and db.Query: gorm's Find costs as much CPU as the
// query itself, in reflection over the row struct, per-column name mapping and callbacks
// (docs/performance.md, finding 6).

// dest lists the scan destinations of productColumns, in order.
func (r *productRow) dest() []any {
	return []any{
		&r.ID, &r.Title, &r.Slug, &r.Description, &r.ShortDescription, &r.ProductType, &r.Vendor, &r.Tags,
		&r.TagsText, &r.Status, &r.IsFeatured, db.Decimal{D: &r.Price}, db.NullDecimal{D: &r.CompareAtPrice},
		db.NullDecimal{D: &r.CostPrice}, &r.Currency, &r.Taxable, &r.RequiresShipping, db.Decimal{D: &r.Weight},
		&r.WeightUnit, &r.InventoryQuantity, &r.InventoryPolicy, &r.InventoryManagement, &r.LowStockThreshold,
		&r.HasVariants, &r.SEOTitle, &r.SEODescription, &r.MetaFields, &r.CreatedAt, &r.UpdatedAt, &r.PublishedAt,
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
		&j.ID, &j.ProductID, &j.Title, &j.SKU, &j.Barcode, db.NullDecimal{D: &j.Price}, db.NullDecimal{D: &j.CompareAtPrice},
		db.NullDecimal{D: &j.CostPrice}, &j.InventoryQuantity, &j.InventoryPolicy, db.NullDecimal{D: &j.Weight},
		&j.WeightUnit, &j.RequiresShipping, &j.IsDefault, &j.Options, &j.CreatedAt, &j.UpdatedAt,
	}
}

// row is the variant, or false when the join found none.
func (j *joinedVariant) row() (variantRow, bool) {
	if !j.ID.Valid {
		return variantRow{}, false
	}
	return variantRow{
		ID: j.ID.String, ProductID: j.ProductID.String, Title: j.Title.String, SKU: j.SKU.String,
		Barcode: j.Barcode.String, SharedColumns: SharedColumns{Price: j.Price.Decimal, CompareAtPrice: j.CompareAtPrice,
			CostPrice: j.CostPrice, InventoryQuantity: int(j.InventoryQuantity.Int64), InventoryPolicy: j.InventoryPolicy.String,
			Weight: j.Weight.Decimal, WeightUnit: j.WeightUnit.String, RequiresShipping: j.RequiresShipping.Bool},
		IsDefault: j.IsDefault.Bool, Options: j.Options.String, CreatedAt: j.CreatedAt.Time, UpdatedAt: j.UpdatedAt.Time,
	}, true
}
