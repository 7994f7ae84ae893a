package http

import (
	"time"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/modules/inventory/app"
	"github.com/gocommerce/commerce/modules/inventory/domain"
)

// Requests. Integers the client must send are pointers so that 0 and absent differ.
// A product-level request (/products/{id}/inventory/...) has its operation's members
// but the product, which the path names, and its own rules; it converts to the
// operation's request. Shared members are embedded structs (httpx names their
// members as the body has them).

// stockTarget is what an /inventory operation moves stock of, and where.
type stockTarget struct {
	ProductID  string `json:"product_id" binding:"required,uuid"`
	VariantID  string `json:"variant_id" binding:"omitempty,uuid"`
	LocationID string `json:"location_id" binding:"required,uuid"`
}

// productTarget is the same on a product-level route: the location defaults to the
// default location.
type productTarget struct {
	VariantID  string `json:"variant_id" binding:"omitempty,uuid"`
	LocationID string `json:"location_id" binding:"omitempty,uuid"`
}

// of names the product of the route's path.
func (t productTarget) of(c *gin.Context) stockTarget {
	return stockTarget{ProductID: c.Param("id"), VariantID: t.VariantID, LocationID: t.LocationID}
}

// movementNotes are a movement's free text.
type movementNotes struct {
	Notes     string `json:"notes"`
	Reference string `json:"reference"`
}

type adjustRequest struct {
	stockTarget
	Adjustment *int   `json:"adjustment" binding:"required"`
	Reason     string `json:"reason" binding:"required,oneof=damaged lost found count return other"`
	movementNotes
}

type productAdjustRequest struct {
	productTarget
	Adjustment *int   `json:"adjustment" binding:"required"`
	Reason     string `json:"reason"`
	movementNotes
}

// setCount is what a set request says besides where.
type setCount struct {
	Quantity *int   `json:"quantity" binding:"required"`
	Reason   string `json:"reason"`
	movementNotes
}

type setRequest struct {
	stockTarget
	setCount
}

type productSetRequest struct {
	productTarget
	setCount
}

type receiveRequest struct {
	stockTarget
	Quantity    *int   `json:"quantity" binding:"required"`
	CostPerUnit string `json:"cost_per_unit"`
	movementNotes
}

type reserveRequest struct {
	stockTarget
	OrderID  string `json:"order_id" binding:"required"`
	Quantity *int   `json:"quantity" binding:"required"`
}

type releaseRequest struct {
	ReservationID string `json:"reservation_id" binding:"required"`
	Reason        string `json:"reason" binding:"required,oneof=order_cancelled order_expired manual_release order_completed"`
}

// productTransferRequest is a transfer but its product (a product-level route's body).
type productTransferRequest struct {
	VariantID      string `json:"variant_id" binding:"omitempty,uuid"`
	FromLocationID string `json:"from_location_id" binding:"required,uuid"`
	ToLocationID   string `json:"to_location_id" binding:"required,uuid"`
	Quantity       *int   `json:"quantity" binding:"required"`
	Reason         string `json:"reason"`
	movementNotes
}

type transferRequest struct {
	ProductID string `json:"product_id" binding:"required,uuid"`
	productTransferRequest
}

// locationAddress is a location's address and phone, in its body and its resource.
type locationAddress struct {
	Address1 string `json:"address1"`
	Address2 string `json:"address2"`
	City     string `json:"city"`
	Province string `json:"province"`
	Country  string `json:"country"`
	Zip      string `json:"zip"`
	Phone    string `json:"phone"`
}

type createLocationRequest struct {
	Name string `json:"name" binding:"required"`
	Code string `json:"code"`
	locationAddress
	IsActive *bool `json:"is_active"`
}

// Responses.

type releaseResponse struct {
	ReservationID string    `json:"reservation_id"`
	Status        string    `json:"status"`
	ReleasedAt    time.Time `json:"released_at"`
	Reason        string    `json:"reason"`
}

type locationLevelResponse struct {
	LocationID   string `json:"location_id"`
	LocationName string `json:"location_name"`
	Available    int    `json:"available"`
	Reserved     int    `json:"reserved"`
	Incoming     int    `json:"incoming"`
}

type recentMovementResponse struct {
	ID           string    `json:"id"`
	VariantID    string    `json:"variant_id"`
	MovementType string    `json:"movement_type"`
	Quantity     int       `json:"quantity"`
	LocationName string    `json:"location_name"`
	Reference    string    `json:"reference"`
	CreatedAt    time.Time `json:"created_at"`
}

type activeReservationResponse struct {
	ID           string    `json:"id"`
	VariantID    string    `json:"variant_id"`
	OrderID      string    `json:"order_id"`
	Quantity     int       `json:"quantity"`
	LocationName string    `json:"location_name"`
	ExpiresAt    time.Time `json:"expires_at"`
}

type levelResponse struct {
	ProductID         string                  `json:"product_id"`
	ProductName       string                  `json:"product_name"`
	TotalAvailable    int                     `json:"total_available"`
	TotalReserved     int                     `json:"total_reserved"`
	TotalIncoming     int                     `json:"total_incoming"`
	LowStockThreshold int                     `json:"low_stock_threshold"`
	StockStatus       string                  `json:"stock_status"`
	Locations         []locationLevelResponse `json:"locations"`
	UpdatedAt         time.Time               `json:"updated_at"`
}

func toLevelResponse(l domain.ProductLevel, includeIncoming bool) levelResponse {
	locs := make([]locationLevelResponse, len(l.Locations))
	for i, ll := range l.Locations {
		locs[i] = locationLevelResponse{LocationID: ll.LocationID, LocationName: ll.LocationName, Available: ll.Available, Reserved: ll.Reserved, Incoming: ll.Incoming}
	}
	return levelResponse{
		ProductID: l.ProductID, ProductName: l.ProductName,
		TotalAvailable: l.Totals.Available, TotalReserved: l.Totals.Reserved, TotalIncoming: l.Totals.Incoming,
		LowStockThreshold: l.LowStockThreshold, StockStatus: string(l.Status(includeIncoming)),
		Locations: locs, UpdatedAt: l.UpdatedAt.UTC(),
	}
}

// levelViewResponse writes the optional additions as arrays (possibly empty) when
// they were asked for, and leaves them out otherwise.
type levelViewResponse struct {
	levelResponse
	RecentMovements    *[]recentMovementResponse    `json:"recent_movements,omitempty"`
	ActiveReservations *[]activeReservationResponse `json:"active_reservations,omitempty"`
}

func toLevelViewResponse(v app.LevelView) levelViewResponse {
	out := levelViewResponse{levelResponse: toLevelResponse(v.ProductLevel, false)}
	if v.RecentMovements != nil {
		ms := make([]recentMovementResponse, len(v.RecentMovements))
		for i, m := range v.RecentMovements {
			ms[i] = recentMovementResponse{ID: m.ID, VariantID: m.VariantID, MovementType: string(m.Type), Quantity: m.Quantity, LocationName: m.LocationName, Reference: m.Reference, CreatedAt: m.CreatedAt.UTC()}
		}
		out.RecentMovements = &ms
	}
	if v.ActiveReservations != nil {
		rs := make([]activeReservationResponse, len(v.ActiveReservations))
		for i, r := range v.ActiveReservations {
			rs[i] = activeReservationResponse{ID: r.ID, VariantID: r.VariantID, OrderID: r.OrderID, Quantity: r.Quantity, LocationName: r.LocationName, ExpiresAt: r.ExpiresAt.UTC()}
		}
		out.ActiveReservations = &rs
	}
	return out
}

type movementResponse struct {
	ID             string    `json:"id"`
	ProductID      string    `json:"product_id"`
	ProductName    string    `json:"product_name"`
	VariantID      string    `json:"variant_id"`
	LocationID     string    `json:"location_id"`
	LocationName   string    `json:"location_name"`
	Quantity       int       `json:"quantity"`
	QuantityBefore int       `json:"quantity_before"`
	QuantityAfter  int       `json:"quantity_after"`
	MovementType   string    `json:"movement_type"`
	Reason         string    `json:"reason"`
	CostPerUnit    *string   `json:"cost_per_unit"`
	Reference      string    `json:"reference"`
	Notes          string    `json:"notes"`
	TransferID     *string   `json:"transfer_id"`
	ReservationID  *string   `json:"reservation_id"`
	CreatedBy      string    `json:"created_by"`
	CreatedAt      time.Time `json:"created_at"`
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func toMovementResponse(m *domain.Movement) movementResponse {
	out := movementResponse{
		ID: m.ID, ProductID: m.ProductID, ProductName: m.ProductName, VariantID: m.VariantID,
		LocationID: m.LocationID, LocationName: m.LocationName, Quantity: m.Quantity,
		QuantityBefore: m.QuantityBefore, QuantityAfter: m.QuantityAfter, MovementType: string(m.Type),
		Reason: m.Reason, Reference: m.Reference, Notes: m.Notes,
		TransferID: nullable(m.TransferID), ReservationID: nullable(m.ReservationID),
		CreatedBy: m.CreatedBy, CreatedAt: m.CreatedAt.UTC(),
	}
	if m.CostPerUnit != nil {
		s := domain.FormatMoney(*m.CostPerUnit, m.Currency)
		out.CostPerUnit = &s
	}
	return out
}

type locationResponse struct {
	ID   string  `json:"id"`
	Name string  `json:"name"`
	Code *string `json:"code"`
	locationAddress
	IsActive  bool      `json:"is_active"`
	IsDefault bool      `json:"is_default"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

func toLocationResponse(l *domain.Location) locationResponse {
	return locationResponse{
		ID: l.ID, Name: l.Name, Code: nullable(l.Code), locationAddress: locationAddress{Address1: l.Address1, Address2: l.Address2,
			City: l.City, Province: l.Province, Country: l.Country, Zip: l.Zip, Phone: l.Phone},
		IsActive: l.IsActive, IsDefault: l.IsDefault, CreatedAt: l.CreatedAt.UTC(), UpdatedAt: l.UpdatedAt.UTC(),
	}
}
