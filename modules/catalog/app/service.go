// Package app holds the catalog use cases: one method per operation, one transaction per
// use case, events written to the outbox in that transaction. Service implements
// catalog/api.Catalog for other modules.
package app

import (
	"context"
	"fmt"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/catalog/api"
	"github.com/gocommerce/commerce/modules/catalog/domain"
	"github.com/gocommerce/commerce/modules/catalog/ports"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/tx"
)

// Settings is the catalog's slice of the configuration.
type Settings struct {
	// MaxImageBytes is uploads.max_size_bytes (10 MB by default).
	MaxImageBytes int64
}

// SettingsFrom takes the catalog's settings from the configuration.
func SettingsFrom(cfg *config.Config) Settings {
	return Settings{MaxImageBytes: cfg.Uploads.MaxSizeBytes}
}

// Stores groups the catalog's repositories.
type Stores struct {
	Products    ports.ProductRepository
	Variants    ports.VariantRepository
	Images      ports.ImageRepository
	Collections ports.CollectionRepository
}

// Service implements the catalog use cases and api.Catalog.
type Service struct {
	settings    Settings
	tx          tx.Manager
	products    ports.ProductRepository
	variants    ports.VariantRepository
	images      ports.ImageRepository
	collections ports.CollectionRepository
	storage     ports.ImageStorage
	orders      ports.Orders
	events      event.Publisher
	clock       clock.Clock
	log         *zap.Logger
	newID       func() string
	// totals caches product list totals per filter, smart the smart collections
	// (docs/decisions/0085).
	totals *memo[int64]
	smart  *memo[[]*domain.Collection]
}

// The in-process read caches (docs/decisions/0085).
const (
	// listTotalsTTL bounds how stale a list total may be after a write through another
	// process; listTotalsMax bounds the number of filters cached.
	listTotalsTTL = 2 * time.Second
	listTotalsMax = 1024
	// smartCollectionsTTL bounds how stale the smart collections (their rules) may be
	// after a write through another process.
	smartCollectionsTTL = 2 * time.Second
)

var _ api.Catalog = (*Service)(nil)

// NewService builds the catalog service.
func NewService(settings Settings, tm tx.Manager, stores Stores, storage ports.ImageStorage, orders ports.Orders,
	pub event.Publisher, clk clock.Clock, log *zap.Logger,
) *Service {
	if log == nil {
		log = zap.NewNop()
	}
	s := &Service{
		settings: settings, tx: tm, products: stores.Products, variants: stores.Variants, images: stores.Images,
		collections: stores.Collections, storage: storage, orders: orders, events: pub, clock: clk,
		log: log.Named("catalog"), newID: ids.New,
		totals: newMemo[int64](listTotalsTTL, listTotalsMax),
		smart:  newMemo[[]*domain.Collection](smartCollectionsTTL, 1),
	}
	return s
}

// writeTx runs a write use case in a transaction and drops the cached list totals once
// the outermost transaction (possibly a caller's) commits.
func (s *Service) writeTx(ctx context.Context, fn func(ctx context.Context) error) error {
	return s.tx.InTx(ctx, func(ctx context.Context) error {
		s.tx.AfterCommit(ctx, s.totals.invalidate)
		return fn(ctx)
	})
}

// writeProduct runs change in a write transaction (writeTx) on the product id names,
// its row locked until the transaction ends; a malformed id is PRODUCT_NOT_FOUND.
func (s *Service) writeProduct(ctx context.Context, id string, change func(ctx context.Context, p *domain.Product) error) error {
	if !ids.Valid(id) {
		return domain.ErrProductNotFound
	}
	return s.writeTx(ctx, func(ctx context.Context) error {
		p, err := s.products.GetForUpdate(ctx, id)
		if err != nil {
			return err
		}
		return change(ctx, p)
	})
}

// result is what a use case returns after its transaction: out, or T's zero value
// with the error.
func result[T any](out T, err error) (T, error) {
	if err != nil {
		var zero T
		return zero, err
	}
	return out, nil
}

// Settings returns the service's settings.
func (s *Service) Settings() Settings { return s.settings }

func (s *Service) publish(ctx context.Context, eventType, aggregateID string, data any) error {
	if err := s.events.Publish(ctx, eventType, aggregateID, data); err != nil {
		return fmt.Errorf("catalog: publish %s: %w", eventType, err)
	}
	return nil
}
