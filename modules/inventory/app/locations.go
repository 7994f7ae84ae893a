package app

import (
	"context"

	"github.com/gocommerce/commerce/modules/inventory/api"
	"github.com/gocommerce/commerce/modules/inventory/domain"
	"github.com/gocommerce/commerce/modules/inventory/ports"
)

// CreateLocation creates a location (api.Inventory).
func (s *Service) CreateLocation(ctx context.Context, cmd api.CreateLocationCommand) (api.Location, error) {
	l, err := s.AddLocation(ctx, domain.NewLocationInput{
		Name: cmd.Name, Code: cmd.Code, Address1: cmd.Address1, Address2: cmd.Address2, City: cmd.City,
		Province: cmd.Province, Country: cmd.Country, Zip: cmd.Zip, Phone: cmd.Phone, IsActive: cmd.IsActive,
	})
	if err != nil {
		return api.Location{}, err
	}
	return api.Location{
		ID: l.ID, Name: l.Name, Code: l.Code, Address1: l.Address1, Address2: l.Address2, City: l.City,
		Province: l.Province, Country: l.Country, Zip: l.Zip, Phone: l.Phone, IsActive: l.IsActive,
		IsDefault: l.IsDefault, CreatedAt: l.CreatedAt, UpdatedAt: l.UpdatedAt,
	}, nil
}

// AddLocation validates and stores a location (a code in use is
// domain.ErrLocationCodeTaken).
func (s *Service) AddLocation(ctx context.Context, in domain.NewLocationInput) (*domain.Location, error) {
	l, err := domain.NewLocation(s.newID(), in, s.clock.Now())
	if err != nil {
		return nil, err
	}
	if err := s.repos.Locations.Create(ctx, l); err != nil {
		return nil, err
	}
	return l, nil
}

// GetLocation returns a location or domain.ErrLocationNotFound.
func (s *Service) GetLocation(ctx context.Context, id string) (*domain.Location, error) {
	return s.location(ctx, id, false)
}

// ListLocations returns a page of locations, the default first.
func (s *Service) ListLocations(ctx context.Context, f ports.LocationFilter, p ports.Page) ([]*domain.Location, int64, error) {
	return s.repos.Locations.List(ctx, f, p)
}
