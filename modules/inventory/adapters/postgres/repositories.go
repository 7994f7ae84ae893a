package postgres

import (
	"github.com/gocommerce/commerce/modules/inventory/ports"
	"github.com/gocommerce/commerce/platform/db"
)

// The repositories, each holding the database handle it takes connections from
// (db.Conn); each one's methods are in its own file.
type (
	// LevelRepository implements ports.LevelRepository on inventory_products and
	// inventory_levels.
	LevelRepository struct {
		db       *db.DB
		products *db.Table[productUpsertRow]
	}
	// LocationRepository implements ports.LocationRepository on inventory_locations.
	LocationRepository struct{ db *db.DB }
	// MovementRepository implements ports.MovementRepository on inventory_movements.
	MovementRepository struct {
		db        *db.DB
		movements *db.Table[movementRow]
	}
	// ReservationRepository implements ports.ReservationRepository on inventory_reservations.
	ReservationRepository struct {
		db           *db.DB
		reservations *db.Table[reservationRow]
	}
	// ProcessedEvents implements ports.ProcessedEvents on inventory_processed_events.
	ProcessedEvents struct{ db *db.DB }
)

var (
	_ ports.LevelRepository       = (*LevelRepository)(nil)
	_ ports.LocationRepository    = (*LocationRepository)(nil)
	_ ports.MovementRepository    = (*MovementRepository)(nil)
	_ ports.ReservationRepository = (*ReservationRepository)(nil)
	_ ports.ProcessedEvents       = (*ProcessedEvents)(nil)
)

// NewLevelRepository builds the repository.
func NewLevelRepository(d *db.DB) *LevelRepository {
	return &LevelRepository{db: d, products: db.NewTable[productUpsertRow](d)}
}

// NewLocationRepository builds the repository.
func NewLocationRepository(d *db.DB) *LocationRepository { return &LocationRepository{db: d} }

// NewMovementRepository builds the repository.
func NewMovementRepository(d *db.DB) *MovementRepository {
	return &MovementRepository{db: d, movements: db.NewTable[movementRow](d)}
}

// NewReservationRepository builds the repository.
func NewReservationRepository(d *db.DB) *ReservationRepository {
	return &ReservationRepository{db: d, reservations: db.NewTable[reservationRow](d)}
}

// NewProcessedEvents builds the store.
func NewProcessedEvents(d *db.DB) *ProcessedEvents { return &ProcessedEvents{db: d} }
