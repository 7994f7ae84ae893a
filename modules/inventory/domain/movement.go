package domain

import (
	"time"

	"github.com/shopspring/decimal"
)

// Movement is one recorded change of a variant's available stock at a location.
// Quantity is the signed change; QuantityBefore and QuantityAfter are available before
// and after it, so Quantity == QuantityAfter - QuantityBefore always holds, and the sum
// of a level's movements is its available stock.
type Movement struct {
	ID             string
	ProductID      string
	ProductName    string
	VariantID      string
	LocationID     string
	LocationName   string // filled when read
	Type           MovementType
	Quantity       int
	QuantityBefore int
	QuantityAfter  int
	Reason         string
	Reference      string
	Notes          string
	CostPerUnit    *decimal.Decimal
	Currency       string // the product's currency when recorded (formats CostPerUnit)
	TransferID     string
	ReservationID  string
	CreatedBy      string
	CreatedAt      time.Time
}
