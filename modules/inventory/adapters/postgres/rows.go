package postgres

import (
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/inventory/domain"
	"github.com/gocommerce/commerce/platform/db"
)

type locationRow struct {
	ID        string `gorm:"primaryKey"`
	Name      string
	Code      *string
	Address1  string
	Address2  string
	City      string
	Province  string
	Country   string
	Zip       string
	Phone     string
	IsActive  bool
	IsDefault bool
	CreatedAt time.Time
	UpdatedAt time.Time
}

func (locationRow) TableName() string { return "inventory_locations" }

func fromLocation(l *domain.Location) locationRow {
	var code *string
	if l.Code != "" {
		c := l.Code
		code = &c
	}
	return locationRow{
		ID: l.ID, Name: l.Name, Code: code, Address1: l.Address1, Address2: l.Address2, City: l.City,
		Province: l.Province, Country: l.Country, Zip: l.Zip, Phone: l.Phone, IsActive: l.IsActive,
		IsDefault: l.IsDefault, CreatedAt: l.CreatedAt.UTC(), UpdatedAt: l.UpdatedAt.UTC(),
	}
}

func (r locationRow) toDomain() *domain.Location {
	l := &domain.Location{
		ID: r.ID, Name: r.Name, Address1: r.Address1, Address2: r.Address2, City: r.City,
		Province: r.Province, Country: r.Country, Zip: r.Zip, Phone: r.Phone, IsActive: r.IsActive,
		IsDefault: r.IsDefault, CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(),
	}
	if r.Code != nil {
		l.Code = *r.Code
	}
	return l
}

type productRow struct {
	ProductID         string `gorm:"primaryKey"`
	ProductName       string
	LowStockThreshold int
	CreatedAt         time.Time
	UpdatedAt         time.Time
}

func (productRow) TableName() string { return "inventory_products" }

// productUpsertRow is productRow as UpsertProducts writes it: updated_at is the
// caller's time (db.Table's upsert sets an autoUpdateTime column to the clock's now).
type productUpsertRow struct {
	ProductID         string `gorm:"primaryKey"`
	ProductName       string
	LowStockThreshold int
	CreatedAt         time.Time
	UpdatedAt         time.Time `gorm:"autoUpdateTime:false"`
}

func (productUpsertRow) TableName() string { return "inventory_products" }

type levelRow struct {
	ID         string `gorm:"primaryKey"`
	ProductID  string
	VariantID  string
	LocationID string
	Available  int
	Reserved   int
	Incoming   int
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

func (levelRow) TableName() string { return "inventory_levels" }

type movementRow struct {
	ID             string `gorm:"primaryKey"`
	ProductID      string
	ProductName    string
	VariantID      string
	LocationID     string
	MovementType   string
	Quantity       int
	QuantityBefore int
	QuantityAfter  int
	Reason         string
	Reference      string
	Notes          string
	CostPerUnit    decimal.NullDecimal
	Currency       string
	TransferID     *string
	ReservationID  *string
	CreatedBy      string
	CreatedAt      time.Time
}

func (movementRow) TableName() string { return "inventory_movements" }

func fromMovement(m *domain.Movement) movementRow {
	row := movementRow{
		ID: m.ID, ProductID: m.ProductID, ProductName: m.ProductName, VariantID: m.VariantID, LocationID: m.LocationID,
		MovementType: string(m.Type), Quantity: m.Quantity, QuantityBefore: m.QuantityBefore, QuantityAfter: m.QuantityAfter,
		Reason: m.Reason, Reference: m.Reference, Notes: m.Notes, Currency: m.Currency,
		TransferID: db.NullString(m.TransferID), ReservationID: db.NullString(m.ReservationID),
		CreatedBy: m.CreatedBy, CreatedAt: m.CreatedAt.UTC(),
	}
	if m.CostPerUnit != nil {
		row.CostPerUnit = decimal.NullDecimal{Decimal: *m.CostPerUnit, Valid: true}
	}
	return row
}

// movementView is a movement row with the names joined in (gorm's Scan fills an
// embedded row's columns through a named field only).
type movementView struct {
	Row          movementRow `gorm:"embedded"`
	CurrentName  *string
	LocationName *string
}

func (r movementView) toDomain() *domain.Movement {
	m := &domain.Movement{
		ID: r.Row.ID, ProductID: r.Row.ProductID, ProductName: r.Row.ProductName, VariantID: r.Row.VariantID, LocationID: r.Row.LocationID,
		LocationName: db.Deref(r.LocationName), Type: domain.MovementType(r.Row.MovementType), Quantity: r.Row.Quantity,
		QuantityBefore: r.Row.QuantityBefore, QuantityAfter: r.Row.QuantityAfter, Reason: r.Row.Reason, Reference: r.Row.Reference,
		Notes: r.Row.Notes, Currency: r.Row.Currency, TransferID: db.Deref(r.Row.TransferID), ReservationID: db.Deref(r.Row.ReservationID),
		CreatedBy: r.Row.CreatedBy, CreatedAt: r.Row.CreatedAt.UTC(),
	}
	if db.Deref(r.CurrentName) != "" {
		m.ProductName = *r.CurrentName
	}
	if r.Row.CostPerUnit.Valid {
		c := r.Row.CostPerUnit.Decimal
		m.CostPerUnit = &c
	}
	return m
}

type reservationRow struct {
	ID            string `gorm:"primaryKey"`
	ProductID     string
	VariantID     string
	LocationID    string
	OrderID       string
	Quantity      int
	Status        string
	ExpiresAt     time.Time
	CreatedAt     time.Time
	ReleasedAt    *time.Time
	ReleaseReason string
}

func (reservationRow) TableName() string { return "inventory_reservations" }

// reservationColumns are a reservation's columns in the order of reservationRow.dest.
const reservationColumns = "id, product_id, variant_id, location_id, order_id, quantity, status, expires_at, created_at, released_at, release_reason"

// dest is where a row of reservationColumns is scanned.
func (r *reservationRow) dest() []any {
	return []any{&r.ID, &r.ProductID, &r.VariantID, &r.LocationID, &r.OrderID, &r.Quantity, &r.Status, &r.ExpiresAt, &r.CreatedAt, &r.ReleasedAt, &r.ReleaseReason}
}

func fromReservation(r *domain.Reservation) reservationRow {
	return reservationRow{
		ID: r.ID, ProductID: r.ProductID, VariantID: r.VariantID, LocationID: r.LocationID, OrderID: r.OrderID,
		Quantity: r.Quantity, Status: string(r.Status), ExpiresAt: r.ExpiresAt.UTC(), CreatedAt: r.CreatedAt.UTC(),
		ReleasedAt: r.ReleasedAt, ReleaseReason: string(r.ReleaseReason),
	}
}

// reservationView is a reservation row with the location name joined in (as
// movementView).
type reservationView struct {
	Row          reservationRow `gorm:"embedded"`
	LocationName *string
}

func (r reservationView) toDomain() *domain.Reservation {
	out := &domain.Reservation{
		ID: r.Row.ID, ProductID: r.Row.ProductID, VariantID: r.Row.VariantID, LocationID: r.Row.LocationID, LocationName: db.Deref(r.LocationName),
		OrderID: r.Row.OrderID, Quantity: r.Row.Quantity, Status: domain.ReservationStatus(r.Row.Status),
		ExpiresAt: r.Row.ExpiresAt.UTC(), CreatedAt: r.Row.CreatedAt.UTC(), ReleaseReason: domain.ReleaseReason(r.Row.ReleaseReason),
	}
	if r.Row.ReleasedAt != nil {
		t := r.Row.ReleasedAt.UTC()
		out.ReleasedAt = &t
	}
	return out
}

type processedRow struct {
	EventID     string `gorm:"primaryKey"`
	Handler     string `gorm:"primaryKey"`
	ProcessedAt time.Time
}

func (processedRow) TableName() string { return "inventory_processed_events" }
