package postgres

import (
	"context"
	"fmt"

	"gorm.io/gorm"

	"github.com/gocommerce/commerce/modules/catalog/domain"
	"github.com/gocommerce/commerce/modules/catalog/ports"
	"github.com/gocommerce/commerce/platform/db"
)

// ImageRepository implements ports.ImageRepository on product_images.
type ImageRepository struct {
	db *db.DB
}

var _ ports.ImageRepository = (*ImageRepository)(nil)

// NewImageRepository builds the repository.
func NewImageRepository(d *db.DB) *ImageRepository { return &ImageRepository{db: d} }

// Create inserts an image record.
func (r *ImageRepository) Create(ctx context.Context, img *domain.Image) error {
	row := fromImage(img)
	if err := r.db.Conn(ctx).Create(&row).Error; err != nil {
		return fmt.Errorf("catalog: insert image: %w", err)
	}
	return nil
}

// Update saves an image record.
func (r *ImageRepository) Update(ctx context.Context, img *domain.Image) error {
	row := fromImage(img)
	if err := r.db.Conn(ctx).Model(&row).Select("*").Updates(&row).Error; err != nil {
		return fmt.Errorf("catalog: update image: %w", err)
	}
	return nil
}

// Delete removes an image record.
func (r *ImageRepository) Delete(ctx context.Context, productID, id string) error {
	if err := r.db.Conn(ctx).Where("id = ? AND product_id = ?", id, productID).Delete(&imageRow{}).Error; err != nil {
		return fmt.Errorf("catalog: delete image: %w", err)
	}
	return nil
}

// Get loads an image of a product.
func (r *ImageRepository) Get(ctx context.Context, productID, id string) (*domain.Image, error) {
	var rows []imageRow
	if err := r.db.Conn(ctx).Where("id = ? AND product_id = ?", id, productID).Limit(1).Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("catalog: select image: %w", err)
	}
	if len(rows) == 0 {
		return nil, domain.ErrImageNotFound
	}
	return rows[0].toDomain(), nil
}

// List returns a page of a product's images by position.
func (r *ImageRepository) List(ctx context.Context, productID string, offset, limit int) ([]*domain.Image, int64, error) {
	var total int64
	if err := r.db.Conn(ctx).Model(&imageRow{}).Where("product_id = ?", productID).Count(&total).Error; err != nil {
		return nil, 0, fmt.Errorf("catalog: count images: %w", err)
	}
	out, err := r.list(r.db.Conn(ctx).Offset(offset).Limit(limit), productID)
	return out, total, err
}

// ListByProduct returns every image of a product by position.
func (r *ImageRepository) ListByProduct(ctx context.Context, productID string) ([]*domain.Image, error) {
	return r.list(r.db.Conn(ctx), productID)
}

func (r *ImageRepository) list(conn *gorm.DB, productID string) ([]*domain.Image, error) {
	var rows []imageRow
	if err := conn.Where("product_id = ?", productID).Order("position ASC, created_at ASC").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("catalog: list images: %w", err)
	}
	out := make([]*domain.Image, 0, len(rows))
	for _, row := range rows {
		out = append(out, row.toDomain())
	}
	return out, nil
}

// Count counts a product's images.
func (r *ImageRepository) Count(ctx context.Context, productID string) (int, error) {
	var n int64
	if err := r.db.Conn(ctx).Model(&imageRow{}).Where("product_id = ?", productID).Count(&n).Error; err != nil {
		return 0, fmt.Errorf("catalog: count images: %w", err)
	}
	return int(n), nil
}

// Shift moves the positions from..to (to 0: no upper bound) by delta.
func (r *ImageRepository) Shift(ctx context.Context, productID string, from, to, delta int) error {
	q := r.db.Conn(ctx).Model(&imageRow{}).Where("product_id = ? AND position >= ?", productID, from)
	if to > 0 {
		q = q.Where("position <= ?", to)
	}
	if err := q.Update("position", gorm.Expr("position + ?", delta)).Error; err != nil {
		return fmt.Errorf("catalog: shift images: %w", err)
	}
	return nil
}
