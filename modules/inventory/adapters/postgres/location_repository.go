package postgres

import (
	"context"
	"fmt"

	"github.com/gocommerce/commerce/modules/inventory/domain"
	"github.com/gocommerce/commerce/modules/inventory/ports"
	"github.com/gocommerce/commerce/platform/db"
)

// LocationRepository implements ports.LocationRepository on inventory_locations.
type LocationRepository struct {
	db *db.DB
}

var _ ports.LocationRepository = (*LocationRepository)(nil)

// NewLocationRepository builds the repository.
func NewLocationRepository(d *db.DB) *LocationRepository { return &LocationRepository{db: d} }

// Create inserts a location; a code in use is domain.ErrLocationCodeTaken.
func (r *LocationRepository) Create(ctx context.Context, l *domain.Location) error {
	row := fromLocation(l)
	if err := r.db.Conn(ctx).Create(&row).Error; err != nil {
		if db.IsDuplicate(err) {
			return domain.ErrLocationCodeTaken
		}
		return fmt.Errorf("inventory: insert location: %w", err)
	}
	return nil
}

// Get loads a location by id.
func (r *LocationRepository) Get(ctx context.Context, id string) (*domain.Location, error) {
	var rows []locationRow
	if err := r.db.Conn(ctx).Where("id = ?", id).Limit(1).Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("inventory: select location: %w", err)
	}
	if len(rows) == 0 {
		return nil, domain.ErrLocationNotFound
	}
	return rows[0].toDomain(), nil
}

// List returns a page of locations, the default first, then by name.
func (r *LocationRepository) List(ctx context.Context, f ports.LocationFilter, p ports.Page) ([]*domain.Location, int64, error) {
	q := r.db.Conn(ctx).Model(&locationRow{})
	if f.IsActive != nil {
		q = q.Where("is_active = ?", *f.IsActive)
	}
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, fmt.Errorf("inventory: count locations: %w", err)
	}
	var rows []locationRow
	if err := q.Order("is_default DESC, name ASC, id ASC").Offset(p.Offset).Limit(p.Limit).Find(&rows).Error; err != nil {
		return nil, 0, fmt.Errorf("inventory: list locations: %w", err)
	}
	out := make([]*domain.Location, len(rows))
	for i, row := range rows {
		out[i] = row.toDomain()
	}
	return out, total, nil
}
