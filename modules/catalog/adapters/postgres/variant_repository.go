package postgres

import (
	"context"
	"fmt"

	"github.com/gocommerce/commerce/modules/catalog/domain"
	"github.com/gocommerce/commerce/modules/catalog/ports"
	"github.com/gocommerce/commerce/platform/db"
)

// VariantRepository implements ports.VariantRepository on product_variants.
type VariantRepository struct {
	db *db.DB
}

var _ ports.VariantRepository = (*VariantRepository)(nil)

// NewVariantRepository builds the repository.
func NewVariantRepository(d *db.DB) *VariantRepository { return &VariantRepository{db: d} }

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
	res := r.db.Conn(ctx).Model(&row).Select("*").Updates(&row)
	if res.Error != nil {
		if db.IsDuplicate(res.Error) && v.SKU != "" {
			return domain.ErrVariantSKUTaken
		}
		return fmt.Errorf("catalog: update variant: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return domain.ErrVariantNotFound
	}
	return nil
}

// Delete removes a variant.
func (r *VariantRepository) Delete(ctx context.Context, productID, id string) error {
	if err := r.db.Conn(ctx).Where("id = ? AND product_id = ?", id, productID).Delete(&variantRow{}).Error; err != nil {
		return fmt.Errorf("catalog: delete variant: %w", err)
	}
	return nil
}

// Get loads a variant of a product.
func (r *VariantRepository) Get(ctx context.Context, productID, id string) (*domain.Variant, error) {
	var rows []variantRow
	if err := r.db.Conn(ctx).Where("id = ? AND product_id = ?", id, productID).Limit(1).Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("catalog: select variant: %w", err)
	}
	if len(rows) == 0 {
		return nil, domain.ErrVariantNotFound
	}
	return rows[0].toDomain(), nil
}

// List returns a page of a product's variants.
func (r *VariantRepository) List(ctx context.Context, productID string, offset, limit int) ([]*domain.Variant, int64, error) {
	q := r.db.Conn(ctx).Model(&variantRow{}).Where("product_id = ?", productID)
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, fmt.Errorf("catalog: count variants: %w", err)
	}
	var rows []variantRow
	if err := r.db.Conn(ctx).Where("product_id = ?", productID).Order(variantOrder).Offset(offset).Limit(limit).Find(&rows).Error; err != nil {
		return nil, 0, fmt.Errorf("catalog: list variants: %w", err)
	}
	out := make([]*domain.Variant, 0, len(rows))
	for _, row := range rows {
		out = append(out, row.toDomain())
	}
	return out, total, nil
}

// ListByProducts returns every variant of the products in one query.
func (r *VariantRepository) ListByProducts(ctx context.Context, productIDs []string) (map[string][]*domain.Variant, error) {
	out := make(map[string][]*domain.Variant, len(productIDs))
	if len(productIDs) == 0 {
		return out, nil
	}
	var rows []variantRow
	if err := r.db.Conn(ctx).Where("product_id IN ?", productIDs).Order("product_id ASC, " + variantOrder).Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("catalog: list variants: %w", err)
	}
	for _, row := range rows {
		out[row.ProductID] = append(out[row.ProductID], row.toDomain())
	}
	return out, nil
}

// SetQuantity stores a variant's stock total.
func (r *VariantRepository) SetQuantity(ctx context.Context, productID, variantID string, quantity int) (bool, error) {
	res := r.db.Conn(ctx).Model(&variantRow{}).Where("id = ? AND product_id = ?", variantID, productID).Update("inventory_quantity", quantity)
	if res.Error != nil {
		return false, fmt.Errorf("catalog: set variant stock: %w", res.Error)
	}
	return res.RowsAffected > 0, nil
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
