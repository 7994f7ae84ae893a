package app

import (
	"context"

	"github.com/gocommerce/commerce/modules/inventory/api"
	"github.com/gocommerce/commerce/modules/inventory/domain"
	"github.com/gocommerce/commerce/modules/inventory/ports"
	"github.com/gocommerce/commerce/platform/ids"
)

// RecentMovements is how many movements GET /inventory/{product_id}?include_history shows.
const RecentMovements = 10

// GetLevelQuery asks for one product's level.
type GetLevelQuery struct {
	ProductID           string
	IncludeHistory      bool
	IncludeReservations bool
}

// LevelView is a product's level with its optional additions.
type LevelView struct {
	domain.ProductLevel
	RecentMovements    []*domain.Movement    // nil unless asked for
	ActiveReservations []*domain.Reservation // nil unless asked for
}

// GetLevel returns a product's stock summed over variants and locations. A product the
// catalog knows but that has no stock records yet has a zero level;
// an unknown product is domain.ErrProductNotFound.
func (s *Service) GetLevel(ctx context.Context, q GetLevelQuery) (LevelView, error) {
	if !ids.Valid(q.ProductID) {
		return LevelView{}, domain.ErrProductNotFound
	}
	p, err := s.catalog.GetProduct(ctx, q.ProductID)
	if err != nil {
		return LevelView{}, err
	}
	level, found, err := s.repos.Levels.ProductLevel(ctx, p.ID)
	if err != nil {
		return LevelView{}, err
	}
	if !found {
		level = domain.ProductLevel{ProductID: p.ID, Locations: []domain.LocationLevel{}}
	}
	level.ProductName, level.LowStockThreshold = p.Name, p.LowStockThreshold
	if level.UpdatedAt.IsZero() {
		level.UpdatedAt = s.clock.Now()
	}
	view := LevelView{ProductLevel: level}
	if q.IncludeHistory {
		ms, _, err := s.repos.Movements.List(ctx, ports.MovementFilter{ProductID: p.ID, Desc: true}, ports.Page{Limit: RecentMovements})
		if err != nil {
			return LevelView{}, err
		}
		view.RecentMovements = append([]*domain.Movement{}, ms...)
	}
	if q.IncludeReservations {
		rs, err := s.repos.Reservations.Active(ctx, p.ID)
		if err != nil {
			return LevelView{}, err
		}
		view.ActiveReservations = append([]*domain.Reservation{}, rs...)
	}
	return view, nil
}

// ListLevels returns a page of product levels.
func (s *Service) ListLevels(ctx context.Context, f ports.LevelFilter, p ports.Page) ([]domain.ProductLevel, int64, error) {
	return s.repos.Levels.List(ctx, f, p)
}

// ListMovements returns a page of movements.
func (s *Service) ListMovements(ctx context.Context, f ports.MovementFilter, p ports.Page) ([]*domain.Movement, int64, error) {
	return s.repos.Movements.List(ctx, f, p)
}

// Totals returns each variant's stock summed over locations.
func (s *Service) Totals(ctx context.Context, variantIDs []string) ([]api.VariantStock, error) {
	valid := make([]string, 0, len(variantIDs))
	for _, id := range variantIDs {
		if ids.Valid(id) {
			valid = append(valid, id)
		}
	}
	totals := map[string]ports.VariantStock{}
	if len(valid) > 0 {
		var err error
		if totals, err = s.repos.Levels.VariantTotals(ctx, valid); err != nil {
			return nil, err
		}
	}
	out := make([]api.VariantStock, 0, len(variantIDs))
	for _, id := range variantIDs {
		t := totals[id]
		out = append(out, api.VariantStock{VariantID: id, ProductID: t.ProductID, Available: t.Available, Reserved: t.Reserved, Incoming: t.Incoming})
	}
	return out, nil
}
