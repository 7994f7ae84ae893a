package app

import (
	"context"
	"errors"

	"github.com/gocommerce/commerce/modules/inventory/api"
	"github.com/gocommerce/commerce/modules/inventory/domain"
	"github.com/gocommerce/commerce/modules/inventory/ports"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/ids"
)

// Handler names recorded with processed events.
const handlerStockSet = "inventory.stock_set"

// StockSetCommand is the catalog's request (event catalog.stock_set) to make a
// variant's available stock at the default location equal to Quantity.
type StockSetCommand struct {
	EventID   string
	ProductID string
	VariantID string
	Quantity  int
}

// ApplyStockSet sets the available stock at the default location (reason count,
// reference catalog) once per event: a redelivered event changes nothing, so a later
// adjustment is never undone by a duplicate. A product or variant deleted meanwhile,
// or a quantity the domain refuses, drops the event (retrying cannot help).
func (s *Service) ApplyStockSet(ctx context.Context, cmd StockSetCommand) error {
	return s.tx.InTx(ctx, func(ctx context.Context) error {
		first, err := s.repos.Processed.MarkProcessed(ctx, cmd.EventID, handlerStockSet, s.clock.Now())
		if err != nil || !first {
			return err
		}
		_, err = s.Set(ctx, api.SetCommand{
			ProductID: cmd.ProductID, VariantID: cmd.VariantID, LocationID: domain.DefaultLocationID,
			Quantity: cmd.Quantity, Reason: string(domain.ReasonCount), Reference: "catalog", Actor: "catalog",
		})
		if e, ok := apperr.As(err); ok && e.Kind != apperr.Internal {
			return nil
		}
		return err
	})
}

// ProductDeleted removes a deleted product's levels and closes its active reservations
// (reason manual_release, no restock); movements are kept. Idempotent.
func (s *Service) ProductDeleted(ctx context.Context, productID string) error {
	if !ids.Valid(productID) {
		return nil
	}
	return s.dropStock(ctx, productID, ports.ReservationScope{ProductID: productID}, func(ctx context.Context) error {
		return s.repos.Levels.DeleteProduct(ctx, productID)
	})
}

// VariantDeleted removes a deleted variant's levels and closes its active
// reservations; movements are kept. Idempotent.
func (s *Service) VariantDeleted(ctx context.Context, productID, variantID string) error {
	if !ids.Valid(variantID) {
		return nil
	}
	return s.dropStock(ctx, productID, ports.ReservationScope{VariantID: variantID}, func(ctx context.Context) error {
		return s.repos.Levels.DeleteVariant(ctx, variantID)
	})
}

// dropStock, in one transaction, locks the product's levels (when productID is an id),
// closes the scope's active reservations and deletes the levels with deleteLevels.
func (s *Service) dropStock(ctx context.Context, productID string, scope ports.ReservationScope, deleteLevels func(context.Context) error) error {
	return s.tx.InTx(ctx, func(ctx context.Context) error {
		if ids.Valid(productID) {
			if _, err := s.repos.Levels.LockProduct(ctx, productID, s.clock.Now()); err != nil {
				return err
			}
		}
		if err := s.closeReservations(ctx, scope); err != nil {
			return err
		}
		return deleteLevels(ctx)
	})
}

func (s *Service) closeReservations(ctx context.Context, scope ports.ReservationScope) error {
	active, err := s.repos.Reservations.ActiveIDs(ctx, scope)
	if err != nil {
		return err
	}
	for _, id := range active {
		if _, err := s.release(ctx, id, domain.ReleaseManual, false); err != nil && !errors.Is(err, domain.ErrReservationAlreadyReleased) {
			return err
		}
	}
	return nil
}

// ProductChanged refreshes the copy of a product's name and low-stock threshold kept
// with its stock (reading the catalog, so order and duplicates do not matter).
func (s *Service) ProductChanged(ctx context.Context, productID string) error {
	if !ids.Valid(productID) {
		return nil
	}
	return s.tx.InTx(ctx, func(ctx context.Context) error {
		p, err := s.catalog.GetProduct(ctx, productID)
		if errors.Is(err, domain.ErrProductNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		return s.repos.Levels.RefreshProduct(ctx, ports.ProductInfo{ID: p.ID, Name: p.Name, LowStockThreshold: p.LowStockThreshold})
	})
}
