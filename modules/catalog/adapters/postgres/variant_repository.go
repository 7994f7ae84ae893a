package postgres

import (
	"context"
	"fmt"
	"strings"

	"gorm.io/gorm"

	"github.com/gocommerce/commerce/modules/catalog/domain"
	"github.com/gocommerce/commerce/modules/catalog/ports"
	"github.com/gocommerce/commerce/platform/db"
)

// variantOrder lists the default variant first, then by creation.
const variantOrder = "is_default DESC, created_at ASC, id ASC"

// Create inserts a variant; the unique SKU index answers VARIANT_SKU_TAKEN.
func (r *VariantRepository) Create(ctx context.Context, v *domain.Variant) error {
	row := fromVariant(v)
	if err := r.db.Conn(ctx).Create(&row).Error; err != nil {
		if db.IsDuplicate(err) && v.SKU != "" {
			return domain.ErrVariantSKUTaken
		}
		return fmt.Errorf("catalog: insert variant: %w", err)
	}
	return nil
}

// Update saves a variant.
func (r *VariantRepository) Update(ctx context.Context, v *domain.Variant) error {
	row := fromVariant(v)
	err := db.One(r.db.Conn(ctx).Model(&row).Select("*").Updates(&row), domain.ErrVariantNotFound, "catalog: update variant")
	if db.IsDuplicate(err) && v.SKU != "" {
		return domain.ErrVariantSKUTaken
	}
	return err
}

// Delete removes a variant.
func (r *VariantRepository) Delete(ctx context.Context, productID, id string) error {
	return db.Done(r.db.Conn(ctx).Where("id = ? AND product_id = ?", id, productID).Delete(&variantRow{}), "catalog: delete variant")
}

// Get loads a variant of a product.
func (r *VariantRepository) Get(ctx context.Context, productID, id string) (*domain.Variant, error) {
	return db.FirstAs(r.db.Conn(ctx).Where("id = ? AND product_id = ?", id, productID), variantRow.toDomain, domain.ErrVariantNotFound, "catalog: select variant")
}

// List returns a page of a product's variants.
func (r *VariantRepository) List(ctx context.Context, productID string, offset, limit int) ([]*domain.Variant, int64, error) {
	q := r.db.Conn(ctx).Model(&variantRow{}).Where("product_id = ?", productID).Session(&gorm.Session{})
	rows, total, err := db.Page[variantRow](q, variantOrder, offset, limit, "catalog: count variants", "catalog: list variants")
	return db.Map(rows, variantRow.toDomain), total, err
}

// ListByProducts returns every variant of the products in one query.
func (r *VariantRepository) ListByProducts(ctx context.Context, productIDs []string) (map[string][]*domain.Variant, error) {
	out := make(map[string][]*domain.Variant, len(productIDs))
	if len(productIDs) == 0 {
		return out, nil
	}
	rows, err := db.Find[variantRow](r.db.Conn(ctx).Where("product_id IN ?", productIDs).Order("product_id ASC, "+variantOrder), "catalog: list variants")
	if err != nil {
		return nil, err
	}
	for _, row := range rows {
		out[row.ProductID] = append(out[row.ProductID], row.toDomain())
	}
	return out, nil
}

// SetQuantities stores variants' stock totals: one UPDATE with a CASE per variant.
func (r *VariantRepository) SetQuantities(ctx context.Context, qs []ports.VariantQuantity) error {
	if len(qs) == 0 {
		return nil
	}
	var cases strings.Builder
	args := make([]any, 0, 4*len(qs))
	for _, q := range qs {
		cases.WriteString(" WHEN id = ? AND product_id = ? THEN CAST(? AS integer)")
		args = append(args, q.VariantID, q.ProductID, q.Quantity)
	}
	for _, q := range qs {
		args = append(args, q.VariantID)
	}
	query := r.db.Rebind("UPDATE product_variants SET inventory_quantity = CASE" + cases.String() + " ELSE inventory_quantity END" +
		" WHERE id IN (" + db.Params(len(qs)) + ")")
	if _, err := r.db.Exec(ctx, query, args...); err != nil {
		return fmt.Errorf("catalog: set variant stock: %w", err)
	}
	return nil
}

// SumQuantities sums variant stock per product.
func (r *VariantRepository) SumQuantities(ctx context.Context, productIDs []string) (map[string]int, error) {
	out := make(map[string]int, len(productIDs))
	if len(productIDs) == 0 {
		return out, nil
	}
	var rows []struct {
		ProductID string
		Total     int
	}
	err := r.db.Conn(ctx).Model(&variantRow{}).Select("product_id, COALESCE(SUM(inventory_quantity), 0) AS total").
		Where("product_id IN ?", productIDs).Group("product_id").Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("catalog: sum variant stock: %w", err)
	}
	for _, row := range rows {
		out[row.ProductID] = row.Total
	}
	return out, nil
}
