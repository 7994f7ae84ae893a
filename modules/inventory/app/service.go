// Package app holds the inventory use cases: one method per operation, one transaction
// per use case, every stock change serialised per product, recorded as a movement,
// reported to the catalog and published through the outbox in that transaction (a
// reservation reports to the catalog once it has committed: catalogsync.go).
package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/inventory/api"
	"github.com/gocommerce/commerce/modules/inventory/domain"
	"github.com/gocommerce/commerce/modules/inventory/ports"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/tx"
)

// Settings is inventory's slice of the configuration.
type Settings struct {
	// ReservationTimeout is how long a reservation holds stock (inventory.reservation_timeout).
	ReservationTimeout time.Duration
	// CatalogSyncDelay is how long the background catalog sync of reservations waits
	// for more reservations before it reports a batch (0: at once; catalogsync.go).
	CatalogSyncDelay time.Duration
}

// DefaultCatalogSyncDelay gathers the reservations of about a tenth of a second into
// one catalog sync.
const DefaultCatalogSyncDelay = 100 * time.Millisecond

// SettingsFrom takes inventory's settings from the configuration.
func SettingsFrom(cfg *config.Config) Settings {
	return Settings{ReservationTimeout: cfg.Inventory.ReservationTimeout, CatalogSyncDelay: DefaultCatalogSyncDelay}
}

// Repositories groups the module's stores.
type Repositories struct {
	Locations    ports.LocationRepository
	Levels       ports.LevelRepository
	Movements    ports.MovementRepository
	Reservations ports.ReservationRepository
	Processed    ports.ProcessedEvents
}

// Service implements api.Inventory and the module's other use cases.
type Service struct {
	tx       tx.Manager
	repos    Repositories
	catalog  ports.Catalog
	events   event.Publisher
	clock    clock.Clock
	settings Settings
	newID    func() string
	log      *zap.Logger
	// sync queues the catalog syncs of reservations (catalogsync.go).
	sync catalogSync
}

var _ api.Inventory = (*Service)(nil)

// NewService builds the inventory service.
func NewService(tm tx.Manager, repos Repositories, catalog ports.Catalog, pub event.Publisher, clk clock.Clock, settings Settings, log *zap.Logger) *Service {
	if settings.ReservationTimeout <= 0 {
		settings.ReservationTimeout = 30 * time.Minute
	}
	if log == nil {
		log = zap.NewNop()
	}
	return &Service{tx: tm, repos: repos, catalog: catalog, events: pub, clock: clk, settings: settings, newID: ids.New, log: log.Named("inventory")}
}

// actorOr returns the actor, or "system" when none was given.
func actorOr(a string) string {
	if a = strings.TrimSpace(a); a == "" {
		return "system"
	}
	return a
}

// variantChange runs fn as one stock change of a variant: inside a transaction it
// resolves the variant from the catalog, locks the product's stock record, lets fn
// change levels and record movements, then reports the variant's new total to the
// catalog in the same transaction.
func (s *Service) variantChange(ctx context.Context, productID, variantID string, fn func(ctx context.Context, v ports.Variant, now time.Time) error) error {
	if !ids.Valid(productID) {
		return domain.ErrProductNotFound
	}
	if variantID != "" && !ids.Valid(variantID) {
		return domain.ErrVariantNotFound
	}
	return s.tx.InTx(ctx, func(ctx context.Context) error {
		v, err := s.catalog.GetVariant(ctx, productID, variantID)
		if err != nil {
			return err
		}
		now := s.clock.Now()
		info := ports.ProductInfo{ID: v.ProductID, Name: v.ProductName, LowStockThreshold: v.LowStockThreshold}
		if err := s.repos.Levels.UpsertProduct(ctx, info, now); err != nil {
			return err
		}
		if err := fn(ctx, v, now); err != nil {
			return err
		}
		return s.reportTotals(ctx, v.ProductID, v.VariantID)
	})
}

// reportTotals tells the catalog the variant's available stock summed over locations.
func (s *Service) reportTotals(ctx context.Context, productID, variantID string) error {
	return s.reportVariantTotals(ctx, []ports.Variant{{ProductID: productID, VariantID: variantID}})
}

// reportVariantTotals tells the catalog the variants' available stock summed over
// locations: one read, one report.
func (s *Service) reportVariantTotals(ctx context.Context, vs []ports.Variant) error {
	variantIDs := make([]string, 0, len(vs))
	report := make([]ports.VariantTotal, 0, len(vs))
	for _, v := range vs {
		if !slices.Contains(variantIDs, v.VariantID) {
			variantIDs = append(variantIDs, v.VariantID)
			report = append(report, ports.VariantTotal{ProductID: v.ProductID, VariantID: v.VariantID})
		}
	}
	totals, err := s.repos.Levels.VariantTotals(ctx, variantIDs)
	if err != nil {
		return err
	}
	for i := range report {
		t := totals[report[i].VariantID].Available
		if t > domain.MaxStock || t < -domain.MaxStock {
			return domain.ErrStockLimit
		}
		report[i].Available = t
	}
	return s.catalog.SetInventoryQuantities(ctx, report)
}

// location returns a location, optionally requiring it to be active. A malformed id is
// not found.
func (s *Service) location(ctx context.Context, id string, active bool) (*domain.Location, error) {
	if !ids.Valid(id) {
		return nil, domain.ErrLocationNotFound
	}
	l, err := s.repos.Locations.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if active && !l.IsActive {
		return nil, domain.ErrLocationInactive
	}
	return l, nil
}

// levelChange is one change of one level computed by the domain.
type levelChange struct {
	key    ports.LevelKey
	op     func(domain.Quantities) (domain.Quantities, error)
	guard  ports.Guard
	refuse error // returned when the database guard refuses the change
	// known, when set, is the level's current quantities already read under the
	// product's lock in this transaction (the level is not read again).
	known *domain.Quantities
}

// applyAt applies c at the active location locationID to v's level there (c.key is
// set here) and returns the location with the quantities before and after.
func (s *Service) applyAt(ctx context.Context, v ports.Variant, locationID string, c levelChange, now time.Time) (loc *domain.Location, before, after domain.Quantities, err error) {
	loc, err = s.location(ctx, locationID, true)
	if err != nil {
		return nil, before, after, err
	}
	c.key = ports.LevelKey{ProductID: v.ProductID, VariantID: v.VariantID, LocationID: loc.ID}
	before, after, err = s.apply(ctx, c, now)
	return loc, before, after, err
}

// apply reads the level (creating it at zero), lets the domain compute the new
// quantities and writes them with a conditional update. It returns the quantities
// before and after.
func (s *Service) apply(ctx context.Context, c levelChange, now time.Time) (before, after domain.Quantities, err error) {
	if c.known != nil {
		before = *c.known
	} else if before, err = s.repos.Levels.Ensure(ctx, c.key, now); err != nil {
		return before, after, err
	}
	after, err = c.op(before)
	if err != nil {
		return before, after, err
	}
	delta := domain.Quantities{
		Available: after.Available - before.Available,
		Reserved:  after.Reserved - before.Reserved,
		Incoming:  after.Incoming - before.Incoming,
	}
	if err := s.repos.Levels.Apply(ctx, c.key, delta, c.guard, now); err != nil {
		if errors.Is(err, ports.ErrGuard) && c.refuse != nil {
			return before, after, c.refuse
		}
		return before, after, err
	}
	return before, after, nil
}

// record stores a movement and returns it.
func (s *Service) record(ctx context.Context, m *domain.Movement) error {
	if m.ID == "" {
		m.ID = s.newID()
	}
	m.Quantity = m.QuantityAfter - m.QuantityBefore
	if err := s.repos.Movements.Add(ctx, m); err != nil {
		return err
	}
	return nil
}

func (s *Service) publish(ctx context.Context, eventType, aggregateID string, data any) error {
	if err := s.events.Publish(ctx, eventType, aggregateID, data); err != nil {
		return fmt.Errorf("inventory: %w", err)
	}
	return nil
}

// locationOrDefault returns id, or the default location's id when empty.
func locationOrDefault(id string) string {
	if strings.TrimSpace(id) == "" {
		return domain.DefaultLocationID
	}
	return id
}
