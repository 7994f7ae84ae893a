// Package dhl is the DHL Express carrier on the MyDHL API (basic authentication with
// the API key and secret): Rates (GET /rates), Shipments (POST /shipments, the label
// as a base64 PDF) and Tracking (GET /shipments/{shipmentTrackingNumber}/tracking).
package dhl

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/shipping/adapters/internal/carrierhttp"
	"github.com/gocommerce/commerce/modules/shipping/domain"
	"github.com/gocommerce/commerce/modules/shipping/ports"
)

// Carrier is the DHL Express adapter. Its account is shipping.dhl: the API key (client_id)
// and secret, the shipper account number, the base URL.
type Carrier struct{ carrierhttp.Base }

// New builds the adapter.
func New(cfg carrierhttp.Account) *Carrier {
	return &Carrier{carrierhttp.NewBase(domain.DHL, cfg, nil, message)}
}

// message reads the problem document {"title", "detail", "status"}.
func message(body []byte) string {
	var e struct{ Title, Detail string }
	if carrierhttp.Decode(body, &e) {
		if e.Detail != "" {
			return e.Detail
		}
		return e.Title
	}
	return ""
}

type price struct {
	CurrencyType, PriceCurrency string
	Price                       decimal.Decimal
}

// billed returns the price in the billing currency (BILLC), else the first.
func billed(prices []price) (price, bool) {
	for _, p := range prices {
		if p.CurrencyType == "BILLC" {
			return p, true
		}
	}
	if len(prices) > 0 {
		return prices[0], true
	}
	return price{}, false
}

// Rates asks the products DHL offers for the parcel on the route.
func (c *Carrier) Rates(ctx context.Context, req domain.RateRequest) ([]domain.Rate, error) {
	q := url.Values{
		"accountNumber": {c.Account.AccountNumber}, "originCountryCode": {req.FromCountry}, "originPostalCode": {req.FromZip},
		"destinationCountryCode": {req.ToCountry}, "destinationPostalCode": {req.ToZip},
		"weight": {carrierhttp.Up(req.Parcel.WeightKg, 3)}, "plannedShippingDate": {req.ShipDate.Format("2006-01-02")},
		"isCustomsDeclarable": {strconv.FormatBool(domain.NeedsCustoms(req.FromCountry, req.ToCountry))},
		"unitOfMeasurement":   {"metric"},
	}
	if p := req.Parcel; p.HasDimensions {
		q.Set("length", carrierhttp.Up(p.LengthCm, 0))
		q.Set("width", carrierhttp.Up(p.WidthCm, 0))
		q.Set("height", carrierhttp.Up(p.HeightCm, 0))
	}
	var out struct {
		Products []struct {
			ProductName, ProductCode string
			IsCustomerAgreement      bool
			TotalPrice               []price
			DeliveryCapabilities     struct {
				EstimatedDeliveryDateAndTime string
				TotalTransitDays             json.Number
			}
		}
	}
	if err := c.Client.Do(ctx, http.MethodGet, "/rates", q, nil, nil, &out); err != nil {
		return nil, err
	}
	var rates []domain.Rate
	for _, p := range out.Products {
		if req.ServiceCode != "" && p.ProductCode != req.ServiceCode {
			continue
		}
		pr, ok := billed(p.TotalPrice)
		if !ok {
			continue
		}
		r := domain.Rate{Carrier: domain.DHL, ServiceCode: p.ProductCode, ServiceName: "DHL " + p.ProductName, Price: pr.Price,
			Currency: pr.PriceCurrency, IsNegotiatedRate: p.IsCustomerAgreement, DeliveryDateGuaranteed: true}
		if days, err := p.DeliveryCapabilities.TotalTransitDays.Int64(); err == nil {
			r.EstimatedDays = int(days)
		}
		if at, ok := carrierhttp.ParseTime(p.DeliveryCapabilities.EstimatedDeliveryDateAndTime); ok {
			r.DeliveryDate = &at
		}
		rates = append(rates, r)
	}
	return rates, nil
}

func details(a domain.Address) map[string]any {
	addr := map[string]any{"postalCode": a.Zip, "cityName": a.City, "countryCode": a.Country, "addressLine1": a.Address1}
	if a.Address2 != "" {
		addr["addressLine2"] = a.Address2
	}
	if a.State != "" {
		addr["provinceCode"] = a.State
	}
	company := a.Company
	if company == "" {
		company = a.Name
	}
	return map[string]any{"postalAddress": addr,
		"contactInformation": map[string]string{"fullName": a.Name, "companyName": company, "phone": a.Phone, "email": a.Email}}
}

func num(d decimal.Decimal, places int32) json.Number { return json.Number(carrierhttp.Up(d, places)) }

// content describes the packages and, for a customs declaration, the goods.
func content(sh *domain.Shipment) map[string]any {
	pkgs := make([]map[string]any, len(sh.Packages))
	for i, p := range sh.Packages {
		parcel := p.Parcel()
		pkgs[i] = map[string]any{"weight": num(parcel.WeightKg, 3)}
		if parcel.HasDimensions {
			pkgs[i]["dimensions"] = map[string]any{"length": num(parcel.LengthCm, 0), "width": num(parcel.WidthCm, 0), "height": num(parcel.HeightCm, 0)}
		}
	}
	out := map[string]any{"packages": pkgs, "unitOfMeasurement": "metric", "incoterm": "DAP", "description": "Goods",
		"isCustomsDeclarable": sh.CustomsInfo != nil}
	if ci := sh.CustomsInfo; ci != nil {
		total, currency := decimal.Zero, "USD"
		items := make([]map[string]any, len(ci.Items))
		for i, it := range ci.Items {
			total, currency = total.Add(it.Value.Mul(decimal.NewFromInt(int64(it.Quantity)))), it.Currency
			items[i] = map[string]any{"number": i + 1, "description": it.Description, "price": json.Number(it.Value.String()),
				"quantity": map[string]any{"value": it.Quantity, "unitOfMeasurement": "PCS"}, "manufacturerCountry": it.OriginCountry,
				"commodityCodes": []map[string]string{{"typeCode": "outbound", "value": it.HSTariffNumber}}}
		}
		out["declaredValue"], out["declaredValueCurrency"] = json.Number(total.String()), currency
		out["exportDeclaration"] = map[string]any{"lineItems": items, "exportReason": ci.ContentsType}
	}
	return out
}

// CreateLabel creates the shipment and its PDF label.
func (c *Carrier) CreateLabel(ctx context.Context, req ports.LabelRequest) (ports.Label, error) {
	sh := req.Shipment
	body := map[string]any{
		"plannedShippingDateAndTime": req.ShipDate.UTC().Format("2006-01-02T15:04:05") + " GMT+00:00",
		"pickup":                     map[string]bool{"isRequested": false},
		"productCode":                sh.ServiceCode,
		"accounts":                   []map[string]string{{"typeCode": "shipper", "number": c.Account.AccountNumber}},
		"outputImageProperties":      map[string]any{"encodingFormat": "pdf", "imageOptions": []map[string]string{{"typeCode": "label"}}},
		"customerDetails":            map[string]any{"shipperDetails": details(sh.ShipFrom), "receiverDetails": details(sh.ShipTo)},
		"content":                    content(sh),
	}
	if sh.Reference != "" {
		body["customerReferences"] = []map[string]string{{"value": sh.Reference, "typeCode": "CU"}}
	}
	if in := sh.Insurance; in != nil {
		body["valueAddedServices"] = []map[string]any{{"serviceCode": "II", "value": json.Number(in.Amount.String()), "currency": in.Currency}}
	}
	var out struct {
		ShipmentTrackingNumber string
		Packages               []struct{ TrackingNumber string }
		Documents              []struct{ ImageFormat, Content, TypeCode string }
		ShipmentCharges        []price
	}
	if err := c.Client.Do(ctx, http.MethodPost, "/shipments", nil, body, nil, &out); err != nil {
		return ports.Label{}, err
	}
	label := ports.Label{TrackingNumber: out.ShipmentTrackingNumber}
	if pr, ok := billed(out.ShipmentCharges); ok {
		label.Price, label.Currency = pr.Price, pr.PriceCurrency
	}
	for _, p := range out.Packages {
		label.PackageTrackingNumbers = append(label.PackageTrackingNumbers, p.TrackingNumber)
	}
	for _, d := range out.Documents {
		if d.TypeCode == "label" {
			img, err := base64.StdEncoding.DecodeString(d.Content)
			if err != nil {
				return ports.Label{}, c.Client.Unavailable("unreadable label")
			}
			label.Image, label.ContentType = img, carrierhttp.LabelContentType(d.ImageFormat)
			break
		}
	}
	if label.TrackingNumber == "" || label.Image == nil {
		return ports.Label{}, c.Client.Unavailable("incomplete shipment answer")
	}
	return label, nil
}

// statuses maps DHL Express checkpoint codes.
var statuses = carrierhttp.Statuses{
	"PU": domain.StatusInTransit, "PL": domain.StatusInTransit, "DF": domain.StatusInTransit, "AF": domain.StatusInTransit,
	"AR": domain.StatusInTransit, "CC": domain.StatusInTransit, "CR": domain.StatusInTransit, "RR": domain.StatusInTransit,
	"WC": domain.StatusOutForDelivery, "OK": domain.StatusDelivered, "DD": domain.StatusDelivered,
	"CA": domain.StatusException, "NH": domain.StatusException, "BA": domain.StatusException, "RT": domain.StatusException,
	"MS": domain.StatusException, "OH": domain.StatusException, "RD": domain.StatusException, "SA": domain.StatusLabelCreated,
}

// Track reads every checkpoint of the shipment (DHL lists the oldest first).
func (c *Carrier) Track(ctx context.Context, trackingNumber string) ([]domain.TrackingEvent, error) {
	var out struct {
		Shipments []struct {
			Events []struct {
				Date, Time, GMTOffset, TypeCode, Description string
				ServiceArea                                  []struct{ Code, Description string }
			}
		}
	}
	q := url.Values{"trackingView": {"all-checkpoints"}, "levelOfDetail": {"all"}}
	if err := c.Client.Do(ctx, http.MethodGet, "/shipments/"+url.PathEscape(trackingNumber)+"/tracking", q, nil, nil, &out); err != nil {
		return nil, err
	}
	var events []domain.TrackingEvent
	for _, s := range out.Shipments {
		for _, e := range s.Events {
			at, ok := carrierhttp.ParseTime(e.Date + "T" + e.Time + e.GMTOffset)
			if !ok {
				if at, ok = carrierhttp.ParseTime(e.Date + "T" + e.Time); !ok {
					continue
				}
			}
			st := statuses.Of(e.TypeCode)
			loc := ""
			if len(e.ServiceArea) > 0 {
				loc = e.ServiceArea[0].Description
			}
			events = append(events, carrierhttp.Event(st, e.TypeCode, e.Description, loc, at))
		}
	}
	return events, nil
}
