package postgres

import (
	"context"

	"gorm.io/gorm"

	"github.com/gocommerce/commerce/modules/inventory/domain"
	"github.com/gocommerce/commerce/modules/inventory/ports"
	"github.com/gocommerce/commerce/platform/db"
)

// Create inserts a location; a code in use is domain.ErrLocationCodeTaken.
func (r *LocationRepository) Create(ctx context.Context, l *domain.Location) error {
	row := fromLocation(l)
	return db.Insert(r.db.Conn(ctx), &row, domain.ErrLocationCodeTaken, "inventory: insert location")
}

// Get loads a location by id.
func (r *LocationRepository) Get(ctx context.Context, id string) (*domain.Location, error) {
	return db.FirstAs(r.db.Conn(ctx).Where("id = ?", id), locationRow.toDomain, domain.ErrLocationNotFound, "inventory: select location")
}

// List returns a page of locations, the default first, then by name.
func (r *LocationRepository) List(ctx context.Context, f ports.LocationFilter, p ports.Page) ([]*domain.Location, int64, error) {
	q := r.db.Conn(ctx).Model(&locationRow{})
	if f.IsActive != nil {
		q = q.Where("is_active = ?", *f.IsActive)
	}
	rows, total, err := db.Page[locationRow](q.Session(&gorm.Session{}), "is_default DESC, name ASC, id ASC", p.Offset, p.Limit,
		"inventory: count locations", "inventory: list locations")
	return db.Map(rows, locationRow.toDomain), total, err
}
