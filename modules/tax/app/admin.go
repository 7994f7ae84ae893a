package app

import (
	"context"

	"github.com/gocommerce/commerce/modules/tax/domain"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/ids"
)

// CreateZone creates a tax zone (admin).
func (s *Service) CreateZone(ctx context.Context, in domain.ZoneInput) (*domain.Zone, error) {
	z, err := domain.NewZone(ids.New(), in, s.now())
	if err != nil {
		return nil, err
	}
	err = s.tx.InTx(ctx, func(ctx context.Context) error {
		if err := s.repo.CreateZone(ctx, z); err != nil {
			return err
		}
		s.changed(ctx)
		return nil
	})
	return z, err
}

// CreateRate creates a tax rate (admin). A rate for a US state registers the merchant
// there, so the state taxes before the sales reach its nexus threshold
// (docs/decisions/0136).
func (s *Service) CreateRate(ctx context.Context, in domain.RateInput) (*domain.Rate, error) {
	r, err := domain.NewRate(ids.New(), in, s.now())
	if err != nil {
		return nil, err
	}
	b, err := s.Book(ctx)
	if err != nil {
		return nil, err
	}
	if r.CategoryID != "" && b.Categories[r.CategoryID] == nil {
		return nil, apperr.Validation(map[string]string{"tax_category_id": "must be the id of a tax category"})
	}
	err = s.tx.InTx(ctx, func(ctx context.Context) error {
		zones, err := s.repo.Zones(ctx) // the zone may be newer than the book
		if err != nil {
			return err
		}
		var zone *domain.Zone
		for _, z := range zones {
			if z.ID == r.ZoneID {
				zone = z
			}
		}
		if zone == nil {
			return domain.ErrZoneNotFound
		}
		if err := s.repo.CreateRate(ctx, r); err != nil {
			return err
		}
		if zone.CountryCode == "US" && zone.RegionCode != "" {
			if err := s.repo.Register(ctx, zone.CountryCode, zone.RegionCode); err != nil {
				return err
			}
		}
		s.changed(ctx)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return r, nil
}
