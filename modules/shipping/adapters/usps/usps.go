// Package usps is the USPS carrier on the USPS APIs (developers.usps.com, v3): OAuth2
// client credentials (POST /oauth2/v3/token), Domestic and International Prices (POST
// /prices/v3/base-rates/search, POST /international-prices/v3/base-rates/search, one
// call per mail class), Payments (POST /payments/v3/payment-authorization) then
// Domestic and International Labels (POST /labels/v3/label, POST
// /international-labels/v3/international-label, one call per package, JSON answers)
// and Tracking (GET /tracking/v3/tracking/{trackingNumber}?expand=DETAIL). USPS ships
// from the United States only.
package usps

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/shipping/adapters/internal/carrierhttp"
	"github.com/gocommerce/commerce/modules/shipping/domain"
	"github.com/gocommerce/commerce/modules/shipping/ports"
)

// Carrier is the USPS adapter. Its account is shipping.usps: the OAuth client, the account
// (CRID:MID:EPS account number, for the payment authorization labels need), the base
// URL.
type Carrier struct{ carrierhttp.Base }

// New builds the adapter.
func New(cfg carrierhttp.Account) *Carrier {
	return &Carrier{carrierhttp.NewBase(domain.USPS, cfg, &carrierhttp.OAuth{Path: "/oauth2/v3/token", Style: "json"}, message)}
}

// message reads {"error": {"code", "message", "errors": [{"title", "detail"}]}}.
func message(body []byte) string {
	var e struct {
		Error struct {
			Message string
			Errors  []struct{ Code, Title, Detail string }
		}
	}
	if !carrierhttp.Decode(body, &e) {
		return ""
	}
	if len(e.Error.Errors) > 0 {
		d := e.Error.Errors[0]
		return strings.TrimSpace(d.Title + " " + d.Detail)
	}
	return e.Error.Message
}

type mailClass struct{ code, name string }

var (
	domesticClasses = []mailClass{
		{"USPS_GROUND_ADVANTAGE", "USPS Ground Advantage"}, {"PRIORITY_MAIL", "USPS Priority Mail"},
		{"PRIORITY_MAIL_EXPRESS", "USPS Priority Mail Express"},
	}
	internationalClasses = []mailClass{
		{"FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE", "USPS First-Class Package International"},
		{"PRIORITY_MAIL_INTERNATIONAL", "USPS Priority Mail International"},
		{"PRIORITY_MAIL_EXPRESS_INTERNATIONAL", "USPS Priority Mail Express International"},
	}
)

func classes(international bool) []mailClass {
	if international {
		return internationalClasses
	}
	return domesticClasses
}

func className(code string) string {
	for _, list := range [][]mailClass{domesticClasses, internationalClasses} {
		for _, m := range list {
			if m.code == code {
				return m.name
			}
		}
	}
	return "USPS " + code
}

var (
	kgPerLb = decimal.RequireFromString("0.45359237")
	cmPerIn = decimal.RequireFromString("2.54")
)

// num writes a measure as a JSON number.
func num(d decimal.Decimal, places int32) json.Number { return json.Number(carrierhttp.Up(d, places)) }

// parcelFields are the weight (lb) and dimensions (in) USPS prices and labels by.
func parcelFields(p domain.Parcel) map[string]any {
	f := map[string]any{"weight": num(p.WeightKg.Div(kgPerLb), 2), "length": json.Number("1"), "width": json.Number("1"), "height": json.Number("1")}
	if p.HasDimensions {
		f["length"], f["width"], f["height"] = num(p.LengthCm.Div(cmPerIn), 1), num(p.WidthCm.Div(cmPerIn), 1), num(p.HeightCm.Div(cmPerIn), 1)
	}
	return f
}

type priceAnswer struct {
	TotalBasePrice decimal.Decimal
	Rates          []struct {
		Description string
		Price       decimal.Decimal
		Zone        string
	}
}

// Rates asks the prices of each mail class serving the route (only the one asked
// for), at once; a class the route does not take (400) is left out.
func (c *Carrier) Rates(ctx context.Context, req domain.RateRequest) ([]domain.Rate, error) {
	if req.FromCountry != "US" {
		return nil, nil
	}
	international := req.ToCountry != "US"
	path := "/prices/v3/base-rates/search"
	if international {
		path = "/international-prices/v3/base-rates/search"
	}
	var (
		mu       sync.Mutex
		wg       sync.WaitGroup
		rates    []domain.Rate
		failures []error
	)
	for _, mc := range classes(international) {
		if req.ServiceCode != "" && req.ServiceCode != mc.code {
			continue
		}
		body := parcelFields(req.Parcel)
		body["originZIPCode"] = req.FromZip[:5]
		body["mailClass"] = mc.code
		body["processingCategory"] = "MACHINABLE"
		body["rateIndicator"] = "SP"
		body["destinationEntryFacilityType"] = "NONE"
		body["priceType"] = "COMMERCIAL"
		body["mailingDate"] = req.ShipDate.Format("2006-01-02")
		if international {
			body["destinationCountryCode"] = req.ToCountry
			body["foreignPostalCode"] = req.ToZip
		} else {
			body["destinationZIPCode"] = req.ToZip[:5]
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var out priceAnswer
			err := c.Client.Do(ctx, http.MethodPost, path, nil, body, nil, &out)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				failures = append(failures, err)
				return
			}
			r := domain.Rate{Carrier: domain.USPS, ServiceCode: mc.code, ServiceName: mc.name, Price: out.TotalBasePrice, Currency: "USD"}
			if len(out.Rates) > 0 {
				r.Description = out.Rates[0].Description
			}
			rates = append(rates, r)
		}()
	}
	wg.Wait()
	// Every class failed: the carrier failed (the first failure says why); a class
	// refused next to priced ones just does not serve this parcel.
	if len(rates) == 0 && len(failures) > 0 {
		return nil, failures[0]
	}
	for _, f := range failures {
		if !domain.ErrCarrierRejected.Is(f) {
			return nil, f
		}
	}
	return rates, nil
}

// account splits CRID:MID:EPS.
func (c *Carrier) account() (crid, mid, eps string) {
	parts := strings.SplitN(c.Account.AccountNumber+"::", ":", 3)
	return parts[0], parts[1], strings.TrimRight(parts[2], ":")
}

// paymentToken asks Payments for the token that pays for labels.
func (c *Carrier) paymentToken(ctx context.Context) (string, error) {
	crid, mid, eps := c.account()
	role := func(name string) map[string]string {
		return map[string]string{"roleName": name, "CRID": crid, "MID": mid, "manifestMID": mid, "accountType": "EPS", "accountNumber": eps}
	}
	var out struct{ PaymentAuthorizationToken string }
	body := map[string]any{"roles": []any{role("PAYER"), role("LABEL_OWNER")}}
	if err := c.Client.Do(ctx, http.MethodPost, "/payments/v3/payment-authorization", nil, body, nil, &out); err != nil {
		return "", err
	}
	if out.PaymentAuthorizationToken == "" {
		return "", c.Client.Unavailable("no payment authorization token")
	}
	return out.PaymentAuthorizationToken, nil
}

func addressOf(a domain.Address, international bool) map[string]any {
	first, last, _ := strings.Cut(a.Name, " ")
	out := map[string]any{"firstName": first, "lastName": last, "firm": a.Company, "streetAddress": a.Address1,
		"secondaryAddress": a.Address2, "city": a.City, "phone": a.Phone, "email": a.Email}
	if international {
		out["province"], out["postalCode"], out["country"], out["countryISOAlpha2Code"] = a.State, a.Zip, a.Country, a.Country
		return out
	}
	zip, plus4, _ := strings.Cut(a.Zip, "-")
	out["state"], out["ZIPCode"] = a.State, zip
	if plus4 != "" {
		out["ZIPPlus4"] = plus4
	}
	return out
}

// customsForm is the international label's customs declaration.
func customsForm(ci *domain.CustomsInfo, weightLb json.Number) map[string]any {
	contents := make([]map[string]any, len(ci.Items))
	for i, it := range ci.Items {
		contents[i] = map[string]any{"itemDescription": it.Description, "itemQuantity": it.Quantity,
			"itemValue": json.Number(it.Value.String()), "itemTotalValue": json.Number(it.Value.Mul(decimal.NewFromInt(int64(it.Quantity))).String()),
			"weightUOM": "lb", "itemWeight": weightLb, "HSTariffNumber": it.HSTariffNumber, "countryofOrigin": it.OriginCountry}
	}
	kind := map[string]string{"merchandise": "MERCHANDISE", "documents": "DOCUMENTS", "gift": "GIFT", "returned_goods": "RETURN",
		"sample": "SAMPLE", "other": "OTHER"}[ci.ContentsType]
	return map[string]any{"customsContentType": kind, "contents": contents, "AESITN": ci.EELPFC,
		"certify": ci.CustomsCertify, "signer": ci.CustomsSigner}
}

type labelAnswer struct {
	LabelMetadata struct {
		TrackingNumber string
		Postage        decimal.Decimal
	}
	LabelImage string
}

// CreateLabel pays for and prints one label per package.
func (c *Carrier) CreateLabel(ctx context.Context, req ports.LabelRequest) (ports.Label, error) {
	sh := req.Shipment
	if sh.ShipFrom.Country != "US" {
		return ports.Label{}, domain.ErrInvalidServiceCode.WithMessage("USPS ships from the United States only")
	}
	token, err := c.paymentToken(ctx)
	if err != nil {
		return ports.Label{}, err
	}
	international := sh.ShipTo.Country != "US"
	path := "/labels/v3/label"
	if international {
		path = "/international-labels/v3/international-label"
	}
	headers := map[string]string{"X-Payment-Authorization-Token": token, "Accept": "application/vnd.usps.labels+json"}
	label := ports.Label{ServiceName: className(sh.ServiceCode), Currency: "USD", ContentType: "application/pdf"}
	for i, p := range sh.Packages {
		desc := parcelFields(p.Parcel())
		desc["mailClass"], desc["rateIndicator"], desc["processingCategory"] = sh.ServiceCode, "SP", "MACHINABLE"
		desc["weightUOM"], desc["dimensionsUOM"], desc["destinationEntryFacilityType"] = "lb", "in", "NONE"
		desc["mailingDate"] = req.ShipDate.Format("2006-01-02")
		if sh.Reference != "" {
			desc["customerReference"] = []map[string]string{{"referenceNumber": sh.Reference}}
		}
		body := map[string]any{"imageInfo": map[string]string{"imageType": "PDF", "labelType": "4X6LABEL"},
			"toAddress": addressOf(sh.ShipTo, international), "fromAddress": addressOf(sh.ShipFrom, false), "packageDescription": desc}
		if international && sh.CustomsInfo != nil {
			body["customsForm"] = customsForm(sh.CustomsInfo, desc["weight"].(json.Number))
		}
		var out labelAnswer
		if err := c.Client.Do(ctx, http.MethodPost, path, nil, body, headers, &out); err != nil {
			return ports.Label{}, err
		}
		label.PackageTrackingNumbers = append(label.PackageTrackingNumbers, out.LabelMetadata.TrackingNumber)
		label.Price = label.Price.Add(out.LabelMetadata.Postage)
		if i == 0 {
			img, err := base64.StdEncoding.DecodeString(out.LabelImage)
			if err != nil || out.LabelMetadata.TrackingNumber == "" {
				return ports.Label{}, c.Client.Unavailable("incomplete label answer")
			}
			label.TrackingNumber, label.Image = out.LabelMetadata.TrackingNumber, img
		}
	}
	return label, nil
}

// statuses maps USPS event codes.
var statuses = carrierhttp.Statuses{
	"GX": domain.StatusLabelCreated, "MA": domain.StatusLabelCreated, "03": domain.StatusInTransit, "OA": domain.StatusInTransit,
	"10": domain.StatusInTransit, "07": domain.StatusInTransit, "OF": domain.StatusOutForDelivery, "01": domain.StatusDelivered,
	"02": domain.StatusException, "04": domain.StatusException, "05": domain.StatusException, "09": domain.StatusException,
	"21": domain.StatusException, "53": domain.StatusException,
}

// Track reads the detailed events (USPS lists the newest first).
func (c *Carrier) Track(ctx context.Context, trackingNumber string) ([]domain.TrackingEvent, error) {
	var out struct {
		TrackingEvents []struct {
			EventType, EventTimestamp, EventCountry, EventCity, EventState, EventCode string
		}
	}
	q := url.Values{"expand": {"DETAIL"}}
	if err := c.Client.Do(ctx, http.MethodGet, "/tracking/v3/tracking/"+url.PathEscape(trackingNumber), q, nil, nil, &out); err != nil {
		return nil, err
	}
	var events []domain.TrackingEvent
	for i := len(out.TrackingEvents) - 1; i >= 0; i-- {
		e := out.TrackingEvents[i]
		at, ok := carrierhttp.ParseTime(e.EventTimestamp)
		if !ok {
			continue
		}
		st := statuses.Of(e.EventCode)
		events = append(events, carrierhttp.Event(st, e.EventCode, e.EventType, carrierhttp.Join(e.EventCity, e.EventState, e.EventCountry), at))
	}
	return events, nil
}
