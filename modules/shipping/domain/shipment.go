package domain

import (
	"sort"
	"time"

	"github.com/shopspring/decimal"
)

// Status is a shipment's status.
type Status string

// Shipment statuses (Part 2).
const (
	StatusPending        Status = "pending"
	StatusLabelCreated   Status = "label_created"
	StatusInTransit      Status = "in_transit"
	StatusOutForDelivery Status = "out_for_delivery"
	StatusDelivered      Status = "delivered"
	StatusException      Status = "exception"
	StatusCancelled      Status = "cancelled"
)

// next lists the statuses each status may move to. A carrier may skip a step
// (label_created straight to delivered); nothing moves backwards except out of an
// exception, and delivered and cancelled are final (docs/decisions/0153).
var next = map[Status][]Status{
	StatusPending:        {StatusLabelCreated, StatusException, StatusCancelled},
	StatusLabelCreated:   {StatusInTransit, StatusOutForDelivery, StatusDelivered, StatusException, StatusCancelled},
	StatusInTransit:      {StatusOutForDelivery, StatusDelivered, StatusException},
	StatusOutForDelivery: {StatusDelivered, StatusException},
	StatusException:      {StatusInTransit, StatusOutForDelivery, StatusDelivered, StatusCancelled},
}

// Valid reports a known status.
func (s Status) Valid() bool {
	switch s {
	case StatusPending, StatusLabelCreated, StatusInTransit, StatusOutForDelivery, StatusDelivered, StatusException, StatusCancelled:
		return true
	}
	return false
}

// Final reports a status no tracking update changes.
func (s Status) Final() bool { return s == StatusDelivered || s == StatusCancelled }

// CanMoveTo reports whether the machine allows s → to.
func (s Status) CanMoveTo(to Status) bool {
	for _, n := range next[s] {
		if n == to {
			return true
		}
	}
	return false
}

// Address is a shipping address (ship_from, ship_to).
type Address struct {
	Name, Company, Phone, Email string
	Address1, Address2          string
	City, State, Country, Zip   string
	Residential                 bool
}

// Item is a quantity of an order's line item in a package.
type Item struct {
	LineItemID string
	Quantity   int
}

// Package is one parcel of a shipment, as given (weight and dimensions in the
// caller's units).
type Package struct {
	ID             string
	TrackingNumber string
	Weight         decimal.Decimal
	WeightUnit     WeightUnit
	Dimensions     *Dimensions
	Items          []Item
}

// Parcel converts the package to kg and cm.
func (p Package) Parcel() Parcel {
	out := Parcel{WeightKg: p.WeightUnit.ToKg(p.Weight)}
	if d := p.Dimensions; d != nil {
		out.HasDimensions = true
		out.LengthCm, out.WidthCm, out.HeightCm = d.Unit.ToCm(d.Length), d.Unit.ToCm(d.Width), d.Unit.ToCm(d.Height)
	}
	return out
}

// CustomsItem is one line of a customs declaration.
type CustomsItem struct {
	Description    string
	Quantity       int
	Value          decimal.Decimal
	Currency       string
	HSTariffNumber string
	OriginCountry  string
}

// CustomsInfo is the customs declaration of an international shipment.
type CustomsInfo struct {
	ContentsType      string
	CustomsCertify    bool
	CustomsSigner     string
	EELPFC            string
	NonDeliveryOption string
	RestrictionType   string
	Items             []CustomsItem
}

// Insurance is the declared value insured.
type Insurance struct {
	Amount   decimal.Decimal
	Currency string
	Provider string
}

// Options are the shipment's service options.
type Options struct {
	SignatureRequired      bool
	AdultSignatureRequired bool
	SaturdayDelivery       bool
	HoldForPickup          bool
	DryIce                 bool
	DangerousGoods         bool
}

// Shipment is a labelled shipment and its tracking state.
type Shipment struct {
	ID                string
	OrderID           string
	Carrier           string
	ServiceCode       string
	ServiceName       string
	TrackingNumber    string
	TrackingURL       string
	LabelURL          string
	Status            Status
	Price             decimal.Decimal
	Currency          string
	Weight            decimal.Decimal
	WeightUnit        WeightUnit
	Dimensions        *Dimensions
	ShipFrom, ShipTo  Address
	Packages          []Package
	CustomsInfo       *CustomsInfo
	Insurance         *Insurance
	Options           Options
	Reference         string
	NotifyCustomer    bool
	CreatedAt         time.Time
	UpdatedAt         time.Time
	ShippedAt         *time.Time
	DeliveredAt       *time.Time
	EstimatedDelivery *time.Time
	// NextTrackAt is when the tracking sweep asks the carrier next (nil: never again).
	NextTrackAt *time.Time
	Version     int
}

// TotalWeight sums the packages' weights in the first package's unit (exactly when
// they share it; otherwise converted through kg).
func TotalWeight(pkgs []Package) (decimal.Decimal, WeightUnit) {
	if len(pkgs) == 0 {
		return decimal.Zero, Kilogram
	}
	unit := pkgs[0].WeightUnit
	same := true
	kg := decimal.Zero
	sum := decimal.Zero
	for _, p := range pkgs {
		same = same && p.WeightUnit == unit
		kg = kg.Add(p.WeightUnit.ToKg(p.Weight))
		sum = sum.Add(p.Weight)
	}
	if same {
		return sum, unit
	}
	return unit.FromKg(kg), unit
}

// TrackingEvent is one scan or status report of a carrier.
type TrackingEvent struct {
	ID          string
	ShipmentID  string
	Status      Status
	Code        string // the carrier's own code
	Description string
	Location    string
	OccurredAt  time.Time
	Source      string // label, poll, webhook
}

// Track applies a carrier's events (any order, already-known ones included): the
// newest event's status becomes the shipment's when the machine allows it; shipped_at
// is the first event past label_created and delivered_at the delivery's time. It
// reports whether the status changed and the status before.
func (s *Shipment) Track(events []TrackingEvent) (changed bool, previous Status) {
	previous = s.Status
	if len(events) == 0 || s.Status.Final() {
		return false, previous
	}
	sorted := append([]TrackingEvent(nil), events...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].OccurredAt.Before(sorted[j].OccurredAt) })
	for _, e := range sorted {
		if s.ShippedAt == nil && (e.Status == StatusInTransit || e.Status == StatusOutForDelivery || e.Status == StatusDelivered) {
			at := e.OccurredAt.UTC()
			s.ShippedAt = &at
		}
	}
	latest := sorted[len(sorted)-1]
	if latest.Status == s.Status || !latest.Status.Valid() || !s.Status.CanMoveTo(latest.Status) {
		return false, previous
	}
	s.Status = latest.Status
	if s.Status == StatusDelivered {
		at := latest.OccurredAt.UTC()
		s.DeliveredAt = &at
	}
	return true, previous
}
