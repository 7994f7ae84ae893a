// Package api is what other modules (checkout, carts, notifications) may import from
// shipping: the Shipping interface (rates for a destination and a parcel), its DTOs,
// the shipment resource (the data of the shipment events) and the event types. No
// framework imports.
package api

import (
	"context"
	"time"

	"github.com/shopspring/decimal"
)

// Event types, each written to the outbox in the transaction of its change. Data is a
// ShipmentEvent.
const (
	EventShipmentCreated        = "shipment.created"
	EventShipmentInTransit      = "shipment.in_transit"
	EventShipmentOutForDelivery = "shipment.out_for_delivery"
	EventShipmentDelivered      = "shipment.delivered"
	EventShipmentException      = "shipment.exception"
	EventShipmentCancelled      = "shipment.cancelled"
	// EventShipmentLabelCreated is published when a pending shipment gets its label later.
	EventShipmentLabelCreated = "shipment.label_created"
)

// RateQuery asks for the rates of a parcel on a route. Weight and dimensions are in
// the given units (default kg and cm); Carriers empty means all four; Currency
// default USD.
type RateQuery struct {
	FromCountry, FromZip string
	ToCountry, ToZip     string
	Weight               decimal.Decimal
	WeightUnit           string
	// Length, Width, Height are all zero or all positive.
	Length, Width, Height decimal.Decimal
	DimensionUnit         string
	Carriers              []string
	ServiceCode           string
	Currency              string
}

// Rate is one service's price.
type Rate struct {
	ID                     string
	Carrier                string
	ServiceCode            string
	ServiceName            string
	Description            string
	EstimatedDays          int
	Price                  decimal.Decimal
	Currency               string
	WeightLimit            decimal.Decimal // in WeightUnit
	WeightUnit             string          // kg or lb
	DimensionsLimit        *DimensionsLimit
	IsNegotiatedRate       bool
	DeliveryDateGuaranteed bool
	DeliveryDate           *time.Time
}

// DimensionsLimit is the largest package a service takes (in Unit: cm or in).
type DimensionsLimit struct {
	Length, Width, Height decimal.Decimal
	Unit                  string
}

// CarrierFailure names a carrier that gave no rates and why.
type CarrierFailure struct {
	Carrier string
	Code    string // CARRIER_UNAVAILABLE (error or timeout) or CARRIER_REJECTED
	Message string
}

// Quote is the answer to a RateQuery: the rates of every carrier that answered in
// time, cheapest first, and the carriers that did not.
type Quote struct {
	Rates    []Rate
	Failures []CarrierFailure
}

// Shipping is what the shipping module offers other modules.
type Shipping interface {
	// Rates quotes the parcel with every asked carrier concurrently, within the
	// configured deadline. A bad query is a validation error naming the field; one
	// failing carrier is a Failure next to the others' rates.
	Rates(ctx context.Context, q RateQuery) (Quote, error)
}

// Address is an address of a shipment resource.
type Address struct {
	Name        string `json:"name"`
	Company     string `json:"company"`
	Phone       string `json:"phone"`
	Email       string `json:"email"`
	Address1    string `json:"address1"`
	Address2    string `json:"address2"`
	City        string `json:"city"`
	State       string `json:"state"`
	Country     string `json:"country"`
	Zip         string `json:"zip"`
	Residential bool   `json:"residential"`
}

// Dimensions are a package's sides.
type Dimensions struct {
	Length string `json:"length"`
	Width  string `json:"width"`
	Height string `json:"height"`
	Unit   string `json:"unit"`
}

// PackageItem is a quantity of an order line in a package.
type PackageItem struct {
	LineItemID string `json:"line_item_id"`
	Quantity   int    `json:"quantity"`
}

// Package is a parcel of a shipment.
type Package struct {
	ID             string        `json:"id"`
	TrackingNumber string        `json:"tracking_number"`
	Weight         string        `json:"weight"`
	WeightUnit     string        `json:"weight_unit"`
	Dimensions     *Dimensions   `json:"dimensions"`
	Items          []PackageItem `json:"items"`
}

// CustomsItem is a line of a customs declaration.
type CustomsItem struct {
	Description    string `json:"description"`
	Quantity       int    `json:"quantity"`
	Value          string `json:"value"`
	Currency       string `json:"currency"`
	HSTariffNumber string `json:"hs_tariff_number"`
	OriginCountry  string `json:"origin_country"`
}

// CustomsInfo is a customs declaration.
type CustomsInfo struct {
	ContentsType      string        `json:"contents_type"`
	CustomsCertify    bool          `json:"customs_certify"`
	CustomsSigner     string        `json:"customs_signer"`
	EELPFC            string        `json:"eel_pfc"`
	NonDeliveryOption string        `json:"non_delivery_option"`
	RestrictionType   string        `json:"restriction_type"`
	CustomsItems      []CustomsItem `json:"customs_items"`
}

// Insurance is the insured value.
type Insurance struct {
	Amount   string `json:"amount"`
	Currency string `json:"currency"`
	Provider string `json:"provider"`
}

// Options are a shipment's service options.
type Options struct {
	SignatureRequired      bool `json:"signature_required"`
	AdultSignatureRequired bool `json:"adult_signature_required"`
	SaturdayDelivery       bool `json:"saturday_delivery"`
	HoldForPickup          bool `json:"hold_for_pickup"`
	DryIce                 bool `json:"dry_ice"`
	DangerousGoods         bool `json:"dangerous_goods"`
}

// TrackingEvent is an entry of a shipment's tracking history.
type TrackingEvent struct {
	Status      string    `json:"status"`
	Code        string    `json:"code"`
	Description string    `json:"description"`
	Location    string    `json:"location"`
	OccurredAt  time.Time `json:"occurred_at"`
	Source      string    `json:"source"`
}

// Shipment is the shipment resource (Part 2 "Shipment") as the API shows it and the
// data of the shipment events. TrackingHistory and Order are present only when
// included.
type Shipment struct {
	ID                string           `json:"id"`
	OrderID           *string          `json:"order_id"`
	Carrier           string           `json:"carrier"`
	ServiceCode       string           `json:"service_code"`
	ServiceName       string           `json:"service_name"`
	TrackingNumber    string           `json:"tracking_number"`
	TrackingURL       string           `json:"tracking_url"`
	LabelURL          string           `json:"label_url"`
	Status            string           `json:"status"`
	Price             string           `json:"price"`
	Currency          string           `json:"currency"`
	Weight            string           `json:"weight"`
	WeightUnit        string           `json:"weight_unit"`
	Dimensions        *Dimensions      `json:"dimensions"`
	ShipFrom          Address          `json:"ship_from"`
	ShipTo            Address          `json:"ship_to"`
	Packages          []Package        `json:"packages"`
	CustomsInfo       *CustomsInfo     `json:"customs_info"`
	Insurance         *Insurance       `json:"insurance"`
	Options           Options          `json:"options"`
	Reference         string           `json:"reference"`
	NotifyCustomer    bool             `json:"notify_customer"`
	CreatedAt         time.Time        `json:"created_at"`
	UpdatedAt         time.Time        `json:"updated_at"`
	ShippedAt         *time.Time       `json:"shipped_at"`
	DeliveredAt       *time.Time       `json:"delivered_at"`
	EstimatedDelivery *time.Time       `json:"estimated_delivery"`
	TrackingHistory   *[]TrackingEvent `json:"tracking_history,omitempty"`
	Order             any              `json:"order,omitempty"`
}

// ShipmentEvent is the data of every shipment event: the shipment and the status it
// had before (equal to its status for shipment.created).
type ShipmentEvent struct {
	Shipment       Shipment `json:"shipment"`
	PreviousStatus string   `json:"previous_status"`
}
