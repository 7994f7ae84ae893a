package domain

import "time"

// LocationLevel is a product's stock at one location (summed over its variants).
type LocationLevel struct {
	LocationID   string
	LocationName string
	Quantities
}

// ProductLevel is a product's stock summed over its variants and locations: the
// spec's "inventory level" resource.
type ProductLevel struct {
	ProductID         string
	ProductName       string
	LowStockThreshold int
	Totals            Quantities
	Locations         []LocationLevel
	UpdatedAt         time.Time
}

// Status is the level's stock status. With includeIncoming, incoming stock counts as
// available (docs/decisions/0032-inventory-levels.md).
func (l ProductLevel) Status(includeIncoming bool) StockStatus {
	available := l.Totals.Available
	if includeIncoming {
		available += l.Totals.Incoming
	}
	return StatusOf(available, l.LowStockThreshold)
}
