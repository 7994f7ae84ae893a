package http

import (
	"encoding/json"
	"reflect"
	"time"

	"github.com/gocommerce/commerce/modules/shipping/api"
	"github.com/gocommerce/commerce/modules/shipping/domain"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/money"
)

// measure is a weight or dimension sent as a JSON number (2.5) or a decimal string
// ("2.5"); its text is kept so the domain parses it exactly.
type measure string

func (m *measure) UnmarshalJSON(b []byte) error {
	s, quoted, err := httpx.JSONText(b)
	switch {
	case quoted:
		if err != nil {
			return err
		}
		*m = measure(s)
	case s == "null":
		*m = ""
	case len(s) > 0 && (s[0] == '-' || (s[0] >= '0' && s[0] <= '9')):
		*m = measure(s)
	default:
		return &json.UnmarshalTypeError{Value: s, Type: reflect.TypeFor[string]()}
	}
	return nil
}

// address is an address as sent: the resource's shape.
func address(a *api.Address) *domain.Address {
	if a == nil {
		return nil
	}
	in := domain.Address(*a)
	return &in
}

type itemRequest struct {
	LineItemID string `json:"line_item_id"`
	Quantity   int    `json:"quantity"`
}

type packageRequest struct {
	Weight        measure       `json:"weight"`
	WeightUnit    string        `json:"weight_unit"`
	Length        measure       `json:"length"`
	Width         measure       `json:"width"`
	Height        measure       `json:"height"`
	DimensionUnit string        `json:"dimension_unit"`
	Items         []itemRequest `json:"items"`
}

type customsItemRequest struct {
	Description    string  `json:"description"`
	Quantity       int     `json:"quantity"`
	Value          measure `json:"value"`
	Currency       string  `json:"currency"`
	HSTariffNumber string  `json:"hs_tariff_number"`
	OriginCountry  string  `json:"origin_country"`
}

type customsRequest struct {
	ContentsType      string               `json:"contents_type"`
	CustomsCertify    bool                 `json:"customs_certify"`
	CustomsSigner     string               `json:"customs_signer"`
	EELPFC            string               `json:"eel_pfc"`
	NonDeliveryOption string               `json:"non_delivery_option"`
	RestrictionType   string               `json:"restriction_type"`
	CustomsItems      []customsItemRequest `json:"customs_items"`
}

type insuranceRequest struct {
	Amount   measure `json:"amount"`
	Currency string  `json:"currency"`
	Provider string  `json:"provider"`
}

type createShipmentRequest struct {
	Carrier        string            `json:"carrier"`
	ServiceCode    string            `json:"service_code"`
	ShipFrom       *api.Address      `json:"ship_from"`
	ShipTo         *api.Address      `json:"ship_to"`
	Packages       []packageRequest  `json:"packages"`
	OrderID        string            `json:"order_id"`
	CustomsInfo    *customsRequest   `json:"customs_info"`
	Insurance      *insuranceRequest `json:"insurance"`
	Options        api.Options       `json:"options"`
	Reference      string            `json:"reference"`
	NotifyCustomer bool              `json:"notify_customer"`
}

func (r *createShipmentRequest) input() domain.ShipmentInput {
	in := domain.ShipmentInput{
		Carrier: r.Carrier, ServiceCode: r.ServiceCode, ShipFrom: address(r.ShipFrom), ShipTo: address(r.ShipTo),
		OrderID: r.OrderID, Options: domain.Options(r.Options), Reference: r.Reference, NotifyCustomer: r.NotifyCustomer,
	}
	for _, p := range r.Packages {
		pi := domain.PackageInput{Weight: string(p.Weight), WeightUnit: p.WeightUnit, Length: string(p.Length),
			Width: string(p.Width), Height: string(p.Height), DimensionUnit: p.DimensionUnit}
		for _, it := range p.Items {
			pi.Items = append(pi.Items, domain.ItemInput(it))
		}
		in.Packages = append(in.Packages, pi)
	}
	if c := r.CustomsInfo; c != nil {
		ci := &domain.CustomsInput{ContentsType: c.ContentsType, CustomsCertify: c.CustomsCertify, CustomsSigner: c.CustomsSigner,
			EELPFC: c.EELPFC, NonDeliveryOption: c.NonDeliveryOption, RestrictionType: c.RestrictionType}
		for _, it := range c.CustomsItems {
			ci.Items = append(ci.Items, domain.CustomsItemInput{Description: it.Description, Quantity: it.Quantity,
				Value: string(it.Value), Currency: it.Currency, HSTariffNumber: it.HSTariffNumber, OriginCountry: it.OriginCountry})
		}
		in.CustomsInfo = ci
	}
	if i := r.Insurance; i != nil {
		in.Insurance = &domain.InsuranceInput{Amount: string(i.Amount), Currency: i.Currency, Provider: i.Provider}
	}
	return in
}

type dimensionsLimit struct {
	Length string `json:"length"`
	Width  string `json:"width"`
	Height string `json:"height"`
	Unit   string `json:"unit"`
}

type rateResponse struct {
	ID                     string           `json:"id"`
	Carrier                string           `json:"carrier"`
	ServiceCode            string           `json:"service_code"`
	ServiceName            string           `json:"service_name"`
	Description            string           `json:"description"`
	EstimatedDays          int              `json:"estimated_days"`
	Price                  string           `json:"price"`
	Currency               string           `json:"currency"`
	WeightLimit            *string          `json:"weight_limit"`
	WeightUnit             string           `json:"weight_unit"`
	DimensionsLimit        *dimensionsLimit `json:"dimensions_limit"`
	IsNegotiatedRate       bool             `json:"is_negotiated_rate"`
	DeliveryDateGuaranteed bool             `json:"delivery_date_guaranteed"`
	DeliveryDate           *string          `json:"delivery_date"`
}

type place struct {
	Country string `json:"country"`
	Zip     string `json:"zip"`
}

type carrierError struct {
	Carrier string `json:"carrier"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

type ratesMeta struct {
	RequestID   string         `json:"request_id"`
	FromAddress place          `json:"from_address"`
	ToAddress   place          `json:"to_address"`
	Weight      string         `json:"weight"`
	WeightUnit  string         `json:"weight_unit"`
	Carriers    []string       `json:"carriers"`
	Errors      []carrierError `json:"errors"`
}

type ratesResponse struct {
	Data []rateResponse `json:"data"`
	Meta ratesMeta      `json:"meta"`
}

func toRateResponse(r api.Rate) rateResponse {
	out := rateResponse{
		ID: r.ID, Carrier: r.Carrier, ServiceCode: r.ServiceCode, ServiceName: r.ServiceName, Description: r.Description,
		EstimatedDays: r.EstimatedDays, Price: money.Format(r.Price, r.Currency), Currency: r.Currency,
		WeightUnit: r.WeightUnit, IsNegotiatedRate: r.IsNegotiatedRate, DeliveryDateGuaranteed: r.DeliveryDateGuaranteed,
	}
	if r.WeightLimit.IsPositive() {
		s := r.WeightLimit.String()
		out.WeightLimit = &s
	}
	if d := r.DimensionsLimit; d != nil {
		out.DimensionsLimit = &dimensionsLimit{Length: d.Length.String(), Width: d.Width.String(), Height: d.Height.String(), Unit: d.Unit}
	}
	if r.DeliveryDate != nil {
		s := r.DeliveryDate.UTC().Format(time.DateOnly)
		out.DeliveryDate = &s
	}
	return out
}

type trackingEventRequest struct {
	Status      string    `json:"status"`
	Code        string    `json:"code"`
	Description string    `json:"description"`
	Location    string    `json:"location"`
	OccurredAt  time.Time `json:"occurred_at"`
}

// webhookRequest is the house format of a carrier tracking update: one tracking number
// with its events (or one event's fields at the top level).
type webhookRequest struct {
	TrackingNumber string                 `json:"tracking_number"`
	Events         []trackingEventRequest `json:"events"`
	trackingEventRequest
}
