package postgres

import (
	"context"
	"fmt"

	"gorm.io/gorm"

	"github.com/gocommerce/commerce/modules/catalog/domain"
	"github.com/gocommerce/commerce/platform/db"
)

// Create inserts an image record.
func (r *ImageRepository) Create(ctx context.Context, img *domain.Image) error {
	row := fromImage(img)
	return db.Insert(r.db.Conn(ctx), &row, nil, "catalog: insert image")
}

// Update saves an image record.
func (r *ImageRepository) Update(ctx context.Context, img *domain.Image) error {
	row := fromImage(img)
	return db.Done(r.db.Conn(ctx).Model(&row).Select("*").Updates(&row), "catalog: update image")
}

// Delete removes an image record.
func (r *ImageRepository) Delete(ctx context.Context, productID, id string) error {
	return db.Done(r.db.Conn(ctx).Where("id = ? AND product_id = ?", id, productID).Delete(&imageRow{}), "catalog: delete image")
}

// Get loads an image of a product.
func (r *ImageRepository) Get(ctx context.Context, productID, id string) (*domain.Image, error) {
	return db.FirstAs(r.db.Conn(ctx).Where("id = ? AND product_id = ?", id, productID), imageRow.toDomain, domain.ErrImageNotFound, "catalog: select image")
}

// List returns a page of a product's images by position.
func (r *ImageRepository) List(ctx context.Context, productID string, offset, limit int) ([]*domain.Image, int64, error) {
	q := r.db.Conn(ctx).Model(&imageRow{}).Where("product_id = ?", productID).Session(&gorm.Session{})
	rows, total, err := db.Page[imageRow](q, imageOrder, offset, limit, "catalog: count images", "catalog: list images")
	return db.Map(rows, imageRow.toDomain), total, err
}

// ListByProduct returns every image of a product by position.
func (r *ImageRepository) ListByProduct(ctx context.Context, productID string) ([]*domain.Image, error) {
	return db.FindAs(r.db.Conn(ctx).Where("product_id = ?", productID).Order(imageOrder), imageRow.toDomain, "catalog: list images")
}

// imageOrder lists a product's images by position.
const imageOrder = "position ASC, created_at ASC"

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
	return db.Done(q.Update("position", gorm.Expr("position + ?", delta)), "catalog: shift images")
}
