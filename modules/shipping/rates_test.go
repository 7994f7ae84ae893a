package shipping_test

import (
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/shipping/adapters/ratetable"
	"github.com/gocommerce/commerce/modules/shipping/api"
	"github.com/gocommerce/commerce/modules/shipping/app"
	"github.com/gocommerce/commerce/modules/shipping/domain"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/httpxtest"
)

func ratesPath(params map[string]string) string {
	q := url.Values{}
	base := map[string]string{"from_country": "US", "from_zip": "10001", "to_country": "US", "to_zip": "94105", "weight": "2"}
	for k, v := range base {
		q.Set(k, v)
	}
	for k, v := range params {
		if v == "-" {
			q.Del(k)
			continue
		}
		q.Set(k, v)
	}
	return "/api/v1/shipping/rates?" + q.Encode()
}

func TestRatesBuiltInTables(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		r := h.Must(200, "GET", ratesPath(nil), nil, "reader")
		rates := r.List()
		carriers := map[string]bool{}
		prev := decimal.Zero
		for _, rate := range rates {
			carriers[rate["carrier"].(string)] = true
			p := decimal.RequireFromString(rate["price"].(string))
			if p.LessThan(prev) {
				t.Errorf("rates not sorted by price: %v after %v", p, prev)
			}
			prev = p
			if rate["currency"] != "USD" || rate["weight_unit"] != "kg" || rate["id"] == "" {
				t.Errorf("rate %v", rate)
			}
		}
		for _, c := range []string{"ups", "fedex", "usps", "dhl"} {
			if !carriers[c] {
				t.Errorf("no %s rate for a US domestic parcel: %s", c, r.Raw)
			}
		}
		meta := r.Body["meta"].(map[string]any)
		if meta["request_id"] == "" || meta["weight"] != "2" || meta["weight_unit"] != "kg" {
			t.Errorf("meta %v", meta)
		}
		from := meta["from_address"].(map[string]any)
		to := meta["to_address"].(map[string]any)
		if from["country"] != "US" || from["zip"] != "10001" || to["country"] != "US" || to["zip"] != "94105" {
			t.Errorf("addresses %v %v", from, to)
		}
		if errs := meta["errors"].([]any); len(errs) != 0 {
			t.Errorf("errors %v", errs)
		}
		// The same quote has the same id.
		again := h.Must(200, "GET", ratesPath(nil), nil, "customer")
		if again.List()[0]["id"] != rates[0]["id"] {
			t.Errorf("rate ids differ between identical quotes")
		}
	})
}

// UPS Ground, domestic zone (10001 → 94105): 10.20 + 1.35 × bracket.
func TestRatesUnitsConvertExactly(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		cases := []struct {
			params map[string]string
			price  string
		}{
			{map[string]string{"weight": "2", "weight_unit": "kg"}, "12.90"},                                                   // bracket 2
			{map[string]string{"weight": "2000", "weight_unit": "g"}, "12.90"},                                                 // = 2 kg
			{map[string]string{"weight": "4.4092", "weight_unit": "lb"}, "12.90"},                                              // 1.99997949 kg → 2
			{map[string]string{"weight": "4.4093", "weight_unit": "lb"}, "14.25"},                                              // 2.00004 kg → 3
			{map[string]string{"weight": "70.5479", "weight_unit": "oz"}, "12.90"},                                             // 1.99999... kg
			{map[string]string{"weight": "1", "length": "30", "width": "30", "height": "30"}, "18.30"},                         // 27000/5000 = 5.4 → 6
			{map[string]string{"weight": "1", "length": "10", "width": "10", "height": "10", "dimension_unit": "in"}, "15.60"}, // 25.4³ = 16387.064 cm³ → 3.28 kg → 4
		}
		for _, c := range cases {
			c.params["carriers"] = "ups"
			c.params["service_code"] = "03"
			r := h.Must(200, "GET", ratesPath(c.params), nil, "reader")
			rates := r.List()
			if len(rates) != 1 {
				t.Fatalf("%v: %d rates: %s", c.params, len(rates), r.Raw)
			}
			if rates[0]["price"] != c.price {
				t.Errorf("%v: price %v, want %s", c.params, rates[0]["price"], c.price)
			}
		}
		// Limits shown in the caller's units: lb and in.
		r := h.Must(200, "GET", ratesPath(map[string]string{"carriers": "ups", "service_code": "03", "weight": "3", "weight_unit": "lb", "dimension_unit": "in", "length": "10", "width": "5", "height": "4"}), nil, "reader")
		rate := r.List()[0]
		if rate["weight_unit"] != "lb" || rate["weight_limit"] != "154.3236" {
			t.Errorf("weight limit %v %v", rate["weight_limit"], rate["weight_unit"])
		}
		dims := rate["dimensions_limit"].(map[string]any)
		if dims["unit"] != "in" || dims["length"] != "107.874" {
			t.Errorf("dimensions limit %v", dims)
		}
		if meta := r.Body["meta"].(map[string]any); meta["weight"] != "3" || meta["weight_unit"] != "lb" {
			t.Errorf("meta %v", meta)
		}
	})
}

func TestRatesParameters(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		// carriers filter, deduplicated, any case.
		r := h.Must(200, "GET", ratesPath(map[string]string{"carriers": "FedEx,usps,fedex"}), nil, "reader")
		for _, rate := range r.List() {
			if rate["carrier"] != "fedex" && rate["carrier"] != "usps" {
				t.Errorf("carrier %v", rate["carrier"])
			}
		}
		if got := r.Body["meta"].(map[string]any)["carriers"]; len(got.([]any)) != 2 {
			t.Errorf("carriers echo %v", got)
		}
		// service_code.
		r = h.Must(200, "GET", ratesPath(map[string]string{"service_code": "PRIORITY_MAIL"}), nil, "reader")
		if l := r.List(); len(l) != 1 || l[0]["carrier"] != "usps" || l[0]["service_name"] != "USPS Priority Mail" {
			t.Errorf("service_code filter: %s", r.Raw)
		}
		// currency: converted from the USD table (UPS Ground 12.90 USD × 0.92 = 11.868 → 11.87 EUR; JPY no decimals).
		r = h.Must(200, "GET", ratesPath(map[string]string{"carriers": "ups", "service_code": "03", "currency": "eur"}), nil, "reader")
		if l := r.List(); l[0]["price"] != "11.87" || l[0]["currency"] != "EUR" {
			t.Errorf("EUR: %v", l[0])
		}
		r = h.Must(200, "GET", ratesPath(map[string]string{"carriers": "ups", "service_code": "03", "currency": "JPY"}), nil, "reader")
		if l := r.List(); l[0]["price"] != "1935" {
			t.Errorf("JPY: %v", l[0]["price"])
		}
		// International: US → DE has no domestic services; USPS ships internationally from the US.
		r = h.Must(200, "GET", ratesPath(map[string]string{"to_country": "DE", "to_zip": "10115"}), nil, "reader")
		for _, rate := range r.List() {
			if rate["service_code"] == "03" || rate["service_code"] == "FEDEX_GROUND" {
				t.Errorf("domestic service abroad: %v", rate)
			}
		}
		// DE → GB from Germany: no USPS (it ships from the US only).
		r = h.Must(200, "GET", ratesPath(map[string]string{"from_country": "DE", "from_zip": "10115", "to_country": "FR", "to_zip": "75001"}), nil, "reader")
		codes := []string{}
		for _, rate := range r.List() {
			if rate["carrier"] == "usps" {
				t.Errorf("usps from DE: %v", rate)
			}
			codes = append(codes, rate["service_code"].(string))
		}
		if !strings.Contains(strings.Join(codes, ","), "U") {
			t.Errorf("DHL Express Worldwide (EU) missing within the EU: %v", codes)
		}
		// Too heavy for every service: no rates, no errors.
		r = h.Must(200, "GET", ratesPath(map[string]string{"weight": "500"}), nil, "reader")
		if len(r.List()) != 0 {
			t.Errorf("500 kg: %s", r.Raw)
		}
	})
}

func TestRatesBadInputNamesTheField(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		cases := []struct {
			params map[string]string
			field  string
		}{
			{map[string]string{"from_country": "-"}, "from_country"},
			{map[string]string{"from_country": "XX"}, "from_country"},
			{map[string]string{"to_country": "USA"}, "to_country"},
			{map[string]string{"from_zip": "-"}, "from_zip"},
			{map[string]string{"to_zip": "ABCDE"}, "to_zip"},
			{map[string]string{"to_country": "GB", "to_zip": "12345"}, "to_zip"},
			{map[string]string{"weight": "-"}, "weight"},
			{map[string]string{"weight": "0"}, "weight"},
			{map[string]string{"weight": "-1"}, "weight"},
			{map[string]string{"weight": "1e3"}, "weight"},
			{map[string]string{"weight": "abc"}, "weight"},
			{map[string]string{"weight": "1.123456"}, "weight"},
			{map[string]string{"weight": "20000"}, "weight"},
			{map[string]string{"weight_unit": "stone"}, "weight_unit"},
			{map[string]string{"dimension_unit": "mm"}, "dimension_unit"},
			{map[string]string{"length": "10"}, "width"},
			{map[string]string{"length": "10", "width": "0", "height": "1"}, "width"},
			{map[string]string{"carriers": "ups,royalmail"}, "carriers"},
			{map[string]string{"currency": "XYZ"}, "currency"},
			{map[string]string{"currency": "ISK"}, "currency"},
		}
		for _, c := range cases {
			r := h.Do("GET", ratesPath(c.params), nil, "reader")
			httpxtest.AssertError(t, r, 400, 400, "validation")
			if _, ok := r.Fields()[c.field]; !ok {
				t.Errorf("%v: fields %v, want %s", c.params, r.Fields(), c.field)
			}
		}
		httpxtest.AssertError(t, h.Do("GET", ratesPath(nil), nil), 401, 401, "auth")
		httpxtest.AssertError(t, h.Do("GET", ratesPath(nil), nil, "other"), 403, 403, "auth")
	})
}

// One slow carrier and one failing carrier leave the others' rates, and say which failed.
func TestRatesCarrierFailureAndTimeout(t *testing.T) {
	t.Parallel()
	slow := func() app.Carriers {
		return app.Carriers{
			ratetable.New(domain.UPS),
			&stubCarrier{code: domain.FedEx, delay: 5 * time.Second},
			&stubCarrier{code: domain.USPS, err: domain.ErrCarrierRejected.WithMessage("usps: invalid ZIP")},
			&stubCarrier{code: domain.DHL, err: errors.New("connection refused")},
		}
	}
	eachEngineWith(t, slow, func(t *testing.T, h *harness) {
		start := time.Now()
		r := h.Must(200, "GET", ratesPath(nil), nil, "reader")
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("took %s: the deadline did not cut the slow carrier", d)
		}
		for _, rate := range r.List() {
			if rate["carrier"] != "ups" {
				t.Errorf("rate of a failed carrier: %v", rate)
			}
		}
		if len(r.List()) == 0 {
			t.Fatalf("ups rates lost: %s", r.Raw)
		}
		errs := httpxtest.Objects(r.Body["meta"].(map[string]any)["errors"])
		want := map[string]string{"fedex": "CARRIER_UNAVAILABLE", "usps": "CARRIER_REJECTED", "dhl": "CARRIER_UNAVAILABLE"}
		if len(errs) != 3 {
			t.Fatalf("errors %v", errs)
		}
		for _, e := range errs {
			if want[e["carrier"].(string)] != e["code"] {
				t.Errorf("error %v", e)
			}
		}
		// Only failing carriers asked: 503 naming them.
		r = h.Do("GET", ratesPath(map[string]string{"carriers": "usps,dhl"}), nil, "reader")
		httpxtest.AssertError(t, r, 503, "RATES_UNAVAILABLE", "unavailable")
	})
}

// The api other modules (checkout) call: typed values, the same validation and quote.
func TestRatesThroughTheAPI(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		q, err := h.svc.Rates(t.Context(), api.RateQuery{FromCountry: "US", FromZip: "10001", ToCountry: "US", ToZip: "94105",
			Weight: decimal.RequireFromString("2000"), WeightUnit: "g", Carriers: []string{"ups"}, ServiceCode: "03"})
		if err != nil || len(q.Rates) != 1 || q.Rates[0].Price.String() != "12.9" || q.Rates[0].Currency != "USD" || len(q.Failures) != 0 {
			t.Fatalf("quote %+v %v", q, err)
		}
		_, err = h.svc.Rates(t.Context(), api.RateQuery{FromCountry: "US", FromZip: "10001", ToCountry: "US", ToZip: "94105"})
		if e, ok := apperr.As(err); !ok || e.Fields["weight"] == "" {
			t.Errorf("no weight: %v", err)
		}
	})
}
