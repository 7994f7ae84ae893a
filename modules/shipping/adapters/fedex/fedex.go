// Package fedex is the FedEx carrier on FedEx's REST APIs: OAuth2 client credentials
// (POST /oauth/token), Rate Quotes (POST /rate/v1/rates/quotes), Ship (POST
// /ship/v1/shipments, the label as a base64 PDF) and Track (POST
// /track/v1/trackingnumbers).
package fedex

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/shipping/adapters/internal/carrierhttp"
	"github.com/gocommerce/commerce/modules/shipping/domain"
	"github.com/gocommerce/commerce/modules/shipping/ports"
)

// Carrier is the FedEx adapter. Its account is shipping.fedex: the OAuth client (API key and
// secret), the account number, the base URL.
type Carrier struct{ carrierhttp.Base }

// New builds the adapter.
func New(cfg carrierhttp.Account) *Carrier {
	return &Carrier{carrierhttp.NewBase(domain.FedEx, cfg, &carrierhttp.OAuth{Path: "/oauth/token", Style: "form"}, message)}
}

type apiError struct{ Code, Message string }

// message reads {"errors": [{"code", "message"}]}.
func message(body []byte) string {
	var e struct{ Errors []apiError }
	if carrierhttp.Decode(body, &e) && len(e.Errors) > 0 {
		return e.Errors[0].Code + " " + e.Errors[0].Message
	}
	return ""
}

type (
	address struct {
		StreetLines         []string `json:"streetLines,omitempty"`
		City                string   `json:"city,omitempty"`
		StateOrProvinceCode string   `json:"stateOrProvinceCode,omitempty"`
		PostalCode          string   `json:"postalCode"`
		CountryCode         string   `json:"countryCode"`
		Residential         bool     `json:"residential,omitempty"`
	}
	party struct {
		Contact *contact `json:"contact,omitempty"`
		Address address  `json:"address"`
	}
	contact struct {
		PersonName  string `json:"personName"`
		PhoneNumber string `json:"phoneNumber,omitempty"`
		CompanyName string `json:"companyName,omitempty"`
	}
	// Numbers go out as JSON numbers (json.Number), as FedEx documents them.
	weight struct {
		Units string      `json:"units"`
		Value json.Number `json:"value"`
	}
	dimensions struct {
		Length json.Number `json:"length"`
		Width  json.Number `json:"width"`
		Height json.Number `json:"height"`
		Units  string      `json:"units"`
	}
	lineItem struct {
		Weight        weight      `json:"weight"`
		Dimensions    *dimensions `json:"dimensions,omitempty"`
		DeclaredValue *amount     `json:"declaredValue,omitempty"`
	}
	amount struct {
		Amount   json.Number `json:"amount"`
		Currency string      `json:"currency"`
	}
)

func num(d decimal.Decimal, places int32) json.Number { return json.Number(carrierhttp.Up(d, places)) }

func item(p domain.Parcel) lineItem {
	li := lineItem{Weight: weight{Units: "KG", Value: num(p.WeightKg, 1)}}
	if p.HasDimensions {
		li.Dimensions = &dimensions{Length: num(p.LengthCm, 0), Width: num(p.WidthCm, 0), Height: num(p.HeightCm, 0), Units: "CM"}
	}
	return li
}

// transitDays reads FedEx's transit time words ("TWO_DAYS").
var transitDays = map[string]int{"ONE_DAY": 1, "TWO_DAYS": 2, "THREE_DAYS": 3, "FOUR_DAYS": 4, "FIVE_DAYS": 5, "SIX_DAYS": 6,
	"SEVEN_DAYS": 7, "EIGHT_DAYS": 8, "NINE_DAYS": 9, "TEN_DAYS": 10}

// Rates asks Rate Quotes for account and list rates (the account rate wins).
func (c *Carrier) Rates(ctx context.Context, req domain.RateRequest) ([]domain.Rate, error) {
	shipment := map[string]any{
		"shipper":                   party{Address: address{PostalCode: req.FromZip, CountryCode: req.FromCountry}},
		"recipient":                 party{Address: address{PostalCode: req.ToZip, CountryCode: req.ToCountry}},
		"pickupType":                "DROPOFF_AT_FEDEX_LOCATION",
		"rateRequestType":           []string{"ACCOUNT", "LIST"},
		"preferredCurrency":         req.Currency,
		"requestedPackageLineItems": []lineItem{item(req.Parcel)},
	}
	if req.ServiceCode != "" {
		shipment["serviceType"] = req.ServiceCode
	}
	var out struct {
		Output struct {
			RateReplyDetails []struct {
				ServiceType, ServiceName string
				RatedShipmentDetails     []struct {
					RateType       string
					TotalNetCharge decimal.Decimal
					Currency       string
				}
				Commit struct {
					DateDetail struct{ DayFormat string }
				}
				OperationalDetail struct{ TransitTime string }
			}
		}
	}
	body := map[string]any{"accountNumber": map[string]string{"value": c.Account.AccountNumber},
		"rateRequestControlParameters": map[string]bool{"returnTransitTimes": true}, "requestedShipment": shipment}
	if err := c.Client.Do(ctx, http.MethodPost, "/rate/v1/rates/quotes", nil, body, nil, &out); err != nil {
		return nil, err
	}
	var rates []domain.Rate
	for _, d := range out.Output.RateReplyDetails {
		if len(d.RatedShipmentDetails) == 0 {
			continue
		}
		best := d.RatedShipmentDetails[0]
		for _, rd := range d.RatedShipmentDetails {
			if rd.RateType == "ACCOUNT" {
				best = rd
			}
		}
		r := domain.Rate{Carrier: domain.FedEx, ServiceCode: d.ServiceType, ServiceName: strings.TrimRight(d.ServiceName, "®"),
			Price: best.TotalNetCharge, Currency: best.Currency, IsNegotiatedRate: best.RateType == "ACCOUNT",
			EstimatedDays: transitDays[d.OperationalDetail.TransitTime]}
		if at, ok := carrierhttp.ParseTime(d.Commit.DateDetail.DayFormat); ok {
			r.DeliveryDate, r.DeliveryDateGuaranteed = &at, true
		}
		rates = append(rates, r)
	}
	return rates, nil
}

func partyOf(a domain.Address) party {
	lines := []string{a.Address1}
	if a.Address2 != "" {
		lines = append(lines, a.Address2)
	}
	return party{Contact: &contact{PersonName: a.Name, PhoneNumber: a.Phone, CompanyName: a.Company}, Address: address{
		StreetLines: lines, City: a.City, StateOrProvinceCode: a.State, PostalCode: a.Zip, CountryCode: a.Country, Residential: a.Residential}}
}

// customs is the customsClearanceDetail of an international shipment.
func customs(ci *domain.CustomsInfo) map[string]any {
	commodities := make([]map[string]any, len(ci.Items))
	for i, it := range ci.Items {
		commodities[i] = map[string]any{"description": it.Description, "quantity": it.Quantity, "quantityUnits": "PCS",
			"customsValue": amount{Amount: json.Number(it.Value.String()), Currency: it.Currency}, "countryOfManufacture": it.OriginCountry,
			"harmonizedCode": it.HSTariffNumber}
	}
	return map[string]any{"dutiesPayment": map[string]string{"paymentType": "SENDER"}, "commodities": commodities}
}

// CreateLabel ships through Ship (sender pays, a 4×6 PDF label per package).
func (c *Carrier) CreateLabel(ctx context.Context, req ports.LabelRequest) (ports.Label, error) {
	sh := req.Shipment
	items := make([]lineItem, len(sh.Packages))
	for i, p := range sh.Packages {
		items[i] = item(p.Parcel())
	}
	if in := sh.Insurance; in != nil {
		items[0].DeclaredValue = &amount{Amount: json.Number(in.Amount.String()), Currency: in.Currency}
	}
	shipment := map[string]any{
		"shipper": partyOf(sh.ShipFrom), "recipients": []party{partyOf(sh.ShipTo)}, "shipDatestamp": req.ShipDate.Format("2006-01-02"),
		"serviceType": sh.ServiceCode, "packagingType": "YOUR_PACKAGING", "pickupType": "DROPOFF_AT_FEDEX_LOCATION",
		"shippingChargesPayment":    map[string]string{"paymentType": "SENDER"},
		"labelSpecification":        map[string]string{"imageType": "PDF", "labelStockType": "PAPER_4X6"},
		"requestedPackageLineItems": items,
	}
	if sh.CustomsInfo != nil {
		shipment["customsClearanceDetail"] = customs(sh.CustomsInfo)
	}
	var special []string
	if sh.Options.SaturdayDelivery {
		special = append(special, "SATURDAY_DELIVERY")
	}
	if sh.Options.DryIce {
		special = append(special, "DRY_ICE")
	}
	if sh.Options.HoldForPickup {
		special = append(special, "HOLD_AT_LOCATION")
	}
	if len(special) > 0 {
		shipment["shipmentSpecialServices"] = map[string]any{"specialServiceTypes": special}
	}
	var out struct {
		Output struct {
			TransactionShipments []struct {
				MasterTrackingNumber, ServiceName string
				PieceResponses                    []struct {
					TrackingNumber   string
					PackageDocuments []struct{ DocType, EncodedLabel string }
				}
				CompletedShipmentDetail struct {
					ShipmentRating struct {
						ShipmentRateDetails []struct {
							TotalNetCharge decimal.Decimal
							Currency       string
						}
					}
				}
			}
		}
	}
	body := map[string]any{"labelResponseOptions": "LABEL", "accountNumber": map[string]string{"value": c.Account.AccountNumber},
		"requestedShipment": shipment}
	if err := c.Client.Do(ctx, http.MethodPost, "/ship/v1/shipments", nil, body, nil, &out); err != nil {
		return ports.Label{}, err
	}
	if len(out.Output.TransactionShipments) == 0 || len(out.Output.TransactionShipments[0].PieceResponses) == 0 {
		return ports.Label{}, c.Client.Unavailable("incomplete shipment answer")
	}
	ts := out.Output.TransactionShipments[0]
	label := ports.Label{TrackingNumber: ts.MasterTrackingNumber, ServiceName: ts.ServiceName}
	if r := ts.CompletedShipmentDetail.ShipmentRating.ShipmentRateDetails; len(r) > 0 {
		label.Price, label.Currency = r[0].TotalNetCharge, r[0].Currency
	}
	for i, p := range ts.PieceResponses {
		label.PackageTrackingNumbers = append(label.PackageTrackingNumbers, p.TrackingNumber)
		if i == 0 && len(p.PackageDocuments) > 0 {
			img, err := base64.StdEncoding.DecodeString(p.PackageDocuments[0].EncodedLabel)
			if err != nil {
				return ports.Label{}, c.Client.Unavailable("unreadable label")
			}
			label.Image, label.ContentType = img, carrierhttp.LabelContentType(p.PackageDocuments[0].DocType)
		}
	}
	if label.TrackingNumber == "" {
		label.TrackingNumber = label.PackageTrackingNumbers[0]
	}
	return label, nil
}

// statuses maps FedEx scan event types.
var statuses = carrierhttp.Statuses{
	"OC": domain.StatusLabelCreated, "PU": domain.StatusInTransit, "AR": domain.StatusInTransit, "DP": domain.StatusInTransit,
	"IT": domain.StatusInTransit, "AF": domain.StatusInTransit, "OD": domain.StatusOutForDelivery, "DL": domain.StatusDelivered,
	"DE": domain.StatusException, "SE": domain.StatusException, "DY": domain.StatusException, "RS": domain.StatusException,
	"CA": domain.StatusCancelled,
}

// Track reads the detailed scans of one tracking number.
func (c *Carrier) Track(ctx context.Context, trackingNumber string) ([]domain.TrackingEvent, error) {
	var out struct {
		Output struct {
			CompleteTrackResults []struct {
				TrackResults []struct {
					Error      *apiError
					ScanEvents []struct {
						Date, EventType, EventDescription, DerivedStatusCode string
						ScanLocation                                         struct{ City, StateOrProvinceCode, CountryCode string }
					}
				}
			}
		}
	}
	body := map[string]any{"includeDetailedScans": true,
		"trackingInfo": []any{map[string]any{"trackingNumberInfo": map[string]string{"trackingNumber": trackingNumber}}}}
	if err := c.Client.Do(ctx, http.MethodPost, "/track/v1/trackingnumbers", nil, body, nil, &out); err != nil {
		return nil, err
	}
	var events []domain.TrackingEvent
	for _, ctr := range out.Output.CompleteTrackResults {
		for _, tr := range ctr.TrackResults {
			if tr.Error != nil {
				return nil, c.Client.Rejected("%s %s", tr.Error.Code, tr.Error.Message)
			}
			for i := len(tr.ScanEvents) - 1; i >= 0; i-- {
				e := tr.ScanEvents[i]
				at, ok := carrierhttp.ParseTime(e.Date)
				if !ok {
					continue
				}
				st := statuses.Of(e.EventType)
				loc := e.ScanLocation
				events = append(events, carrierhttp.Event(st, e.EventType, e.EventDescription,
					carrierhttp.Join(loc.City, loc.StateOrProvinceCode, loc.CountryCode), at))
			}
		}
	}
	return events, nil
}
