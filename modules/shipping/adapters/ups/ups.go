// Package ups is the UPS carrier on UPS's REST APIs: OAuth2 client credentials
// (POST /security/v1/oauth/token), Rating (POST /api/rating/v2403/Shop, or /Rate for
// one service), Shipping (POST /api/shipments/v2409/ship, label as a base64 image) and
// Tracking (GET /api/track/v1/details/{inquiryNumber}).
package ups

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/shipping/adapters/internal/carrierhttp"
	"github.com/gocommerce/commerce/modules/shipping/domain"
	"github.com/gocommerce/commerce/modules/shipping/ports"
)

// Carrier is the UPS adapter. Its account is shipping.ups: the OAuth client, the shipper
// (account) number, the base URL.
type Carrier struct{ carrierhttp.Base }

var _ ports.TrackingPush = (*Carrier)(nil)

// New builds the adapter.
func New(cfg carrierhttp.Account) *Carrier {
	return &Carrier{carrierhttp.NewBase(domain.UPS, cfg, &carrierhttp.OAuth{Path: "/security/v1/oauth/token", Style: "basic", Headers: map[string]string{"x-merchant-id": cfg.AccountNumber}}, message)}
}

// message reads {"response": {"errors": [{"code", "message"}]}}.
func message(body []byte) string {
	var e struct {
		Response struct {
			Errors []struct{ Code, Message string } `json:"errors"`
		} `json:"response"`
	}
	if carrierhttp.Decode(body, &e) && len(e.Response.Errors) > 0 {
		return e.Response.Errors[0].Code + " " + e.Response.Errors[0].Message
	}
	return ""
}

// Service names of the UPS service codes.
var serviceNames = map[string]string{
	"01": "UPS Next Day Air", "02": "UPS 2nd Day Air", "03": "UPS Ground", "07": "UPS Worldwide Express",
	"08": "UPS Worldwide Expedited", "11": "UPS Standard", "12": "UPS 3 Day Select", "13": "UPS Next Day Air Saver",
	"14": "UPS Next Day Air Early", "54": "UPS Worldwide Express Plus", "59": "UPS 2nd Day Air A.M.", "65": "UPS Worldwide Saver",
}

type (
	code    struct{ Code string }
	address struct {
		AddressLine       []string `json:",omitempty"`
		City              string   `json:",omitempty"`
		StateProvinceCode string   `json:",omitempty"`
		PostalCode        string
		CountryCode       string
	}
	party struct {
		Name          string                   `json:",omitempty"`
		ShipperNumber string                   `json:",omitempty"`
		Phone         *struct{ Number string } `json:",omitempty"`
		Address       address
	}
	measure struct {
		UnitOfMeasurement code
		Weight            string `json:",omitempty"`
		Length            string `json:",omitempty"`
		Width             string `json:",omitempty"`
		Height            string `json:",omitempty"`
	}
	pkg struct {
		PackagingType         *code    `json:",omitempty"`
		Packaging             *code    `json:",omitempty"`
		Dimensions            *measure `json:",omitempty"`
		PackageWeight         measure
		PackageServiceOptions *struct{ DeclaredValue charge } `json:",omitempty"`
	}
	charge struct{ CurrencyCode, MonetaryValue string }
)

func packageOf(p domain.Parcel, shipping bool) pkg {
	out := pkg{PackageWeight: measure{UnitOfMeasurement: code{"KGS"}, Weight: carrierhttp.Up(p.WeightKg, 1)}}
	if shipping {
		out.Packaging = &code{"02"}
	} else {
		out.PackagingType = &code{"02"}
	}
	if p.HasDimensions {
		out.Dimensions = &measure{UnitOfMeasurement: code{"CM"}, Length: carrierhttp.Up(p.LengthCm, 0),
			Width: carrierhttp.Up(p.WidthCm, 0), Height: carrierhttp.Up(p.HeightCm, 0)}
	}
	return out
}

// Rates asks Rating in Shop mode (every service), or Rate mode for one service.
func (c *Carrier) Rates(ctx context.Context, req domain.RateRequest) ([]domain.Rate, error) {
	option := "Shop"
	shipment := map[string]any{
		"Shipper":               party{ShipperNumber: c.Account.AccountNumber, Address: address{PostalCode: req.FromZip, CountryCode: req.FromCountry}},
		"ShipFrom":              party{Address: address{PostalCode: req.FromZip, CountryCode: req.FromCountry}},
		"ShipTo":                party{Address: address{PostalCode: req.ToZip, CountryCode: req.ToCountry}},
		"Package":               []pkg{packageOf(req.Parcel, false)},
		"ShipmentRatingOptions": map[string]string{"NegotiatedRatesIndicator": "Y"},
	}
	if req.ServiceCode != "" {
		option = "Rate"
		shipment["Service"] = code{req.ServiceCode}
	}
	var out struct {
		RateResponse struct {
			RatedShipment carrierhttp.OneOrMany[struct {
				Service               code
				TotalCharges          charge
				NegotiatedRateCharges *struct{ TotalCharge charge }
				GuaranteedDelivery    *struct{ BusinessDaysInTransit string }
			}]
		}
	}
	body := map[string]any{"RateRequest": map[string]any{"Request": map[string]any{"RequestOption": option}, "Shipment": shipment}}
	if err := c.Client.Do(ctx, http.MethodPost, "/api/rating/v2403/"+option, nil, body, c.headers(), &out); err != nil {
		return nil, err
	}
	rates := make([]domain.Rate, 0, len(out.RateResponse.RatedShipment))
	for _, rs := range out.RateResponse.RatedShipment {
		ch, negotiated := rs.TotalCharges, false
		if rs.NegotiatedRateCharges != nil && rs.NegotiatedRateCharges.TotalCharge.MonetaryValue != "" {
			ch, negotiated = rs.NegotiatedRateCharges.TotalCharge, true
		}
		price, ok := carrierhttp.Amount(ch.MonetaryValue)
		if !ok {
			return nil, c.Client.Unavailable("unreadable price %q", ch.MonetaryValue)
		}
		r := domain.Rate{Carrier: domain.UPS, ServiceCode: rs.Service.Code, ServiceName: serviceNames[rs.Service.Code],
			Price: price, Currency: ch.CurrencyCode, IsNegotiatedRate: negotiated}
		if r.ServiceName == "" {
			r.ServiceName = "UPS service " + rs.Service.Code
		}
		if g := rs.GuaranteedDelivery; g != nil {
			if days, err := decimal.NewFromString(g.BusinessDaysInTransit); err == nil {
				r.EstimatedDays = int(days.IntPart())
				r.DeliveryDateGuaranteed = true
				d := domain.AddBusinessDays(req.ShipDate, r.EstimatedDays)
				r.DeliveryDate = &d
			}
		}
		rates = append(rates, r)
	}
	return rates, nil
}

func (c *Carrier) headers() map[string]string {
	return map[string]string{"transId": time.Now().UTC().Format("20060102150405.000000"), "transactionSrc": "commerce"}
}

func partyOf(a domain.Address, shipperNumber string) party {
	p := party{Name: a.Name, ShipperNumber: shipperNumber, Address: address{
		AddressLine: []string{a.Address1}, City: a.City, StateProvinceCode: a.State, PostalCode: a.Zip, CountryCode: a.Country}}
	if a.Address2 != "" {
		p.Address.AddressLine = append(p.Address.AddressLine, a.Address2)
	}
	if a.Phone != "" {
		p.Phone = &struct{ Number string }{a.Phone}
	}
	return p
}

// CreateLabel buys the label through Shipping (bill shipper, PNG label).
func (c *Carrier) CreateLabel(ctx context.Context, req ports.LabelRequest) (ports.Label, error) {
	sh := req.Shipment
	pkgs := make([]pkg, len(sh.Packages))
	for i, p := range sh.Packages {
		pkgs[i] = packageOf(p.Parcel(), true)
	}
	shipment := map[string]any{
		"Description": sh.Reference, "Shipper": partyOf(sh.ShipFrom, c.Account.AccountNumber), "ShipFrom": partyOf(sh.ShipFrom, ""),
		"ShipTo": partyOf(sh.ShipTo, ""), "Service": code{sh.ServiceCode}, "Package": pkgs,
		"PaymentInformation": map[string]any{"ShipmentCharge": map[string]any{"Type": "01", "BillShipper": map[string]string{"AccountNumber": c.Account.AccountNumber}}},
	}
	if sh.Reference != "" {
		shipment["ReferenceNumber"] = map[string]string{"Value": sh.Reference}
	}
	if in := sh.Insurance; in != nil {
		pkgs[0].PackageServiceOptions = &struct{ DeclaredValue charge }{charge{in.Currency, in.Amount.String()}}
	}
	opts := map[string]any{}
	if ci := sh.CustomsInfo; ci != nil {
		opts["InternationalForms"] = internationalForms(ci, req.ShipDate)
	}
	if sh.Options.SaturdayDelivery || sh.Options.SignatureRequired || sh.Options.AdultSignatureRequired {
		if sh.Options.SaturdayDelivery {
			opts["SaturdayDeliveryIndicator"] = ""
		}
		if sh.Options.AdultSignatureRequired {
			opts["DeliveryConfirmation"] = map[string]string{"DCISType": "2"}
		} else if sh.Options.SignatureRequired {
			opts["DeliveryConfirmation"] = map[string]string{"DCISType": "1"}
		}
	}
	if len(opts) > 0 {
		shipment["ShipmentServiceOptions"] = opts
	}
	var out struct {
		ShipmentResponse struct {
			ShipmentResults struct {
				ShipmentCharges              struct{ TotalCharges charge }
				ShipmentIdentificationNumber string
				PackageResults               carrierhttp.OneOrMany[struct {
					TrackingNumber string
					ShippingLabel  struct {
						ImageFormat  code
						GraphicImage string
					}
				}]
			}
		}
	}
	body := map[string]any{"ShipmentRequest": map[string]any{
		"Request": map[string]any{"RequestOption": "nonvalidate"}, "Shipment": shipment,
		"LabelSpecification": map[string]any{"LabelImageFormat": code{"PNG"}},
	}}
	if err := c.Client.Do(ctx, http.MethodPost, "/api/shipments/v2409/ship", nil, body, c.headers(), &out); err != nil {
		return ports.Label{}, err
	}
	res := out.ShipmentResponse.ShipmentResults
	price, ok := carrierhttp.Amount(res.ShipmentCharges.TotalCharges.MonetaryValue)
	if !ok || len(res.PackageResults) == 0 {
		return ports.Label{}, c.Client.Unavailable("incomplete shipment answer")
	}
	label := ports.Label{TrackingNumber: res.ShipmentIdentificationNumber, ServiceName: serviceNames[sh.ServiceCode], Price: price,
		Currency: res.ShipmentCharges.TotalCharges.CurrencyCode}
	for i, p := range res.PackageResults {
		label.PackageTrackingNumbers = append(label.PackageTrackingNumbers, p.TrackingNumber)
		if i == 0 {
			img, err := base64.StdEncoding.DecodeString(p.ShippingLabel.GraphicImage)
			if err != nil {
				return ports.Label{}, c.Client.Unavailable("unreadable label image")
			}
			label.Image, label.ContentType = img, carrierhttp.LabelContentType(p.ShippingLabel.ImageFormat.Code)
		}
	}
	if label.TrackingNumber == "" {
		label.TrackingNumber = label.PackageTrackingNumbers[0]
	}
	return label, nil
}

// internationalForms is the commercial invoice (form 01) of a customs declaration.
func internationalForms(ci *domain.CustomsInfo, date time.Time) map[string]any {
	products := make([]map[string]any, len(ci.Items))
	currency := "USD"
	for i, it := range ci.Items {
		currency = it.Currency
		products[i] = map[string]any{"Description": []string{it.Description}, "CommodityCode": it.HSTariffNumber,
			"OriginCountryCode": it.OriginCountry, "Unit": map[string]any{"Number": strconv.Itoa(it.Quantity), "Value": it.Value.String(),
				"UnitOfMeasurement": code{"PCS"}}}
	}
	reason := map[string]string{"gift": "GIFT", "sample": "SAMPLE", "returned_goods": "RETURN"}[ci.ContentsType]
	if reason == "" {
		reason = "SALE"
	}
	return map[string]any{"FormType": "01", "InvoiceDate": date.Format("20060102"), "ReasonForExport": reason,
		"CurrencyCode": currency, "Product": products}
}

// statuses maps UPS activity status types.
var statuses = carrierhttp.Statuses{
	"M": domain.StatusLabelCreated, "MV": domain.StatusLabelCreated, "P": domain.StatusInTransit, "I": domain.StatusInTransit,
	"O": domain.StatusOutForDelivery, "D": domain.StatusDelivered, "X": domain.StatusException, "RS": domain.StatusException,
	"NA": domain.StatusException, "DO": domain.StatusInTransit, "DD": domain.StatusInTransit, "W": domain.StatusInTransit,
}

// ParsePush reads a Track Alert push: one activity of one tracking number.
func (c *Carrier) ParsePush(body []byte) (string, []domain.TrackingEvent, error) {
	var push struct {
		TrackingNumber   string
		GMTActivityDate  string `json:"gmtActivityDate"`
		GMTActivityTime  string `json:"gmtActivityTime"`
		ActivityLocation struct{ City, StateProvince, Country string }
		ActivityStatus   struct{ Type, Code, Description string }
	}
	if !carrierhttp.Decode(body, &push) || push.TrackingNumber == "" {
		return "", nil, domain.ErrCarrierRejected.WithMessage("ups: not a Track Alert body").WithField("trackingNumber", "is required")
	}
	at, ok := carrierhttp.ParseTime(push.GMTActivityDate + " " + push.GMTActivityTime)
	if !ok {
		return "", nil, domain.ErrCarrierRejected.WithMessage("ups: bad activity time").WithField("gmtActivityDate", "must be YYYYMMDD with gmtActivityTime HHMMSS")
	}
	st := statuses.Of(push.ActivityStatus.Type)
	loc := push.ActivityLocation
	return push.TrackingNumber, []domain.TrackingEvent{carrierhttp.Event(st, push.ActivityStatus.Type+":"+push.ActivityStatus.Code,
		push.ActivityStatus.Description, carrierhttp.Join(loc.City, loc.StateProvince, loc.Country), at)}, nil
}

// Track reads the package's activities (UPS lists the newest first).
func (c *Carrier) Track(ctx context.Context, trackingNumber string) ([]domain.TrackingEvent, error) {
	var out struct {
		TrackResponse struct {
			Shipment []struct {
				Package []struct {
					Activity []struct {
						Location struct {
							Address struct{ City, StateProvince, CountryCode string } `json:"address"`
						} `json:"location"`
						Status struct{ Type, Description, Code string } `json:"status"`
						Date   string                                   `json:"date"`
						Time   string                                   `json:"time"`
					} `json:"activity"`
				} `json:"package"`
			} `json:"shipment"`
		} `json:"trackResponse"`
	}
	q := url.Values{"locale": {"en_US"}, "returnSignature": {"false"}}
	if err := c.Client.Do(ctx, http.MethodGet, "/api/track/v1/details/"+url.PathEscape(trackingNumber), q, nil, c.headers(), &out); err != nil {
		return nil, err
	}
	var events []domain.TrackingEvent
	for _, s := range out.TrackResponse.Shipment {
		for _, p := range s.Package {
			for i := len(p.Activity) - 1; i >= 0; i-- {
				a := p.Activity[i]
				at, ok := carrierhttp.ParseTime(a.Date + " " + a.Time)
				if !ok {
					continue
				}
				st := statuses.Of(a.Status.Type)
				loc := a.Location.Address
				events = append(events, carrierhttp.Event(st, a.Status.Type+":"+a.Status.Code, a.Status.Description,
					carrierhttp.Join(loc.City, loc.StateProvince, loc.CountryCode), at))
			}
		}
	}
	return events, nil
}
