package usps_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/shipping/adapters/internal/carrierhttp"
	"github.com/gocommerce/commerce/modules/shipping/adapters/internal/carriertest"
	"github.com/gocommerce/commerce/modules/shipping/adapters/usps"
	"github.com/gocommerce/commerce/modules/shipping/domain"
	"github.com/gocommerce/commerce/modules/shipping/ports"
)

func setup(t *testing.T) (*carriertest.Server, *usps.Carrier) {
	return carriertest.Start(t, "/oauth2/v3/token", carrierhttp.Account{ClientID: "cid", ClientSecret: "csecret", AccountNumber: "123456:900001:1000123456"}, usps.New)
}

func request(to, zip, service string) domain.RateRequest {
	return domain.RateRequest{FromCountry: "US", FromZip: "10001", ToCountry: to, ToZip: zip, ServiceCode: service, Currency: "USD", ShipDate: carriertest.ShipDate,
		Parcel: domain.Parcel{WeightKg: decimal.RequireFromString("0.68038855"), HasDimensions: true,
			LengthCm: decimal.RequireFromString("25.4"), WidthCm: decimal.RequireFromString("20.32"), HeightCm: decimal.RequireFromString("10.16")}}
}

// prices answers per mail class; a class missing from the map is refused (400).
func prices(srv *carriertest.Server, route string, byClass map[string]string) {
	srv.Handle(route, func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		_ = json.NewDecoder(r.Body).Decode(&body)
		p, ok := byClass[body["mailClass"].(string)]
		if !ok {
			carriertest.Write(w, 400, `{"apiVersion":"/prices/v3","error":{"code":"400","message":"No rates","errors":[{"status":"400","code":"020001","title":"No rate found","detail":"The mail class is not available."}]}}`)
			return
		}
		carriertest.Write(w, 200, `{"totalBasePrice":`+p+`,"rates":[{"SKU":"DPXX","description":"`+body["mailClass"].(string)+` Machinable","price":`+p+`,"zone":"08"}]}`)
	})
}

func TestRatesDomesticAndInternational(t *testing.T) {
	t.Parallel()
	srv, c := setup(t)
	prices(srv, "POST /prices/v3/base-rates/search", map[string]string{"USPS_GROUND_ADVANTAGE": "8.15", "PRIORITY_MAIL": "11.40"})
	rates := carriertest.Rates(t, c, request("US", "94105-1234", ""))
	got := map[string]string{}
	for _, r := range rates {
		got[r.ServiceCode] = r.Price.String()
	}
	if len(rates) != 2 || got["USPS_GROUND_ADVANTAGE"] != "8.15" || got["PRIORITY_MAIL"] != "11.4" {
		t.Fatalf("rates %+v", rates)
	}
	reqs := srv.Requests("POST /prices/v3/base-rates/search")
	if len(reqs) != 3 {
		t.Fatalf("%d price calls, want one per domestic class", len(reqs))
	}
	body := reqs[0].Body
	// 0.68038855 kg = 1.5 lb; 25.4 cm = 10 in.
	carriertest.AssertBody(t, body, map[string]any{"originZIPCode": "10001", "destinationZIPCode": "94105", "weight": 1.5, "length": 10.0, "width": 8.0, "mailingDate": "2026-11-25"})
	prices(srv, "POST /international-prices/v3/base-rates/search", map[string]string{"PRIORITY_MAIL_INTERNATIONAL": "52.10"})
	rates, err := c.Rates(context.Background(), request("DE", "10117", "PRIORITY_MAIL_INTERNATIONAL"))
	if err != nil || len(rates) != 1 || rates[0].Price.String() != "52.1" || rates[0].ServiceName != "USPS Priority Mail International" {
		t.Fatalf("international %+v %v", rates, err)
	}
	if b := srv.Last("POST /international-prices/v3/base-rates/search").Body; b["destinationCountryCode"] != "DE" || b["foreignPostalCode"] != "10117" {
		t.Errorf("international body %v", b)
	}
	// USPS does not ship from abroad: no rates, no call.
	if r, err := c.Rates(context.Background(), domain.RateRequest{FromCountry: "CA", ToCountry: "US"}); err != nil || len(r) != 0 {
		t.Errorf("from CA: %v %v", r, err)
	}
	srv.AssertFailures("POST /prices/v3/base-rates/search", `{"error":{"code":"400","message":"bad","errors":[{"title":"Invalid ZIP","detail":"destinationZIPCode is not valid"}]}}`,
		"destinationZIPCode is not valid", carriertest.RatesCall(c, request("US", "94105", "PRIORITY_MAIL")))
}

func TestCreateLabel(t *testing.T) {
	t.Parallel()
	srv, c := setup(t)
	srv.Answer("POST /payments/v3/payment-authorization", 200, `{"paymentAuthorizationToken":"pay-tok"}`)
	n := 0
	pdf := base64.StdEncoding.EncodeToString([]byte("%PDF usps"))
	srv.Handle("POST /labels/v3/label", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Payment-Authorization-Token") != "pay-tok" {
			carriertest.Write(w, 401, `{}`)
			return
		}
		n++
		tn := []string{"9400100000000000000001", "9400100000000000000002"}[n-1]
		carriertest.Write(w, 200, `{"labelMetadata":{"trackingNumber":"`+tn+`","postage":9.35,"zone":"08"},"labelImage":"`+pdf+`"}`)
	})
	sh := &domain.Shipment{ServiceCode: "PRIORITY_MAIL", Reference: "PO-7",
		ShipFrom: domain.Address{Name: "Ada Lovelace", Address1: "1 Main St", City: "New York", State: "NY", Country: "US", Zip: "10001"},
		ShipTo:   domain.Address{Name: "Bob Smith", Address1: "2 Market St", City: "San Francisco", State: "CA", Country: "US", Zip: "94105-1234"},
		Packages: []domain.Package{{Weight: decimal.NewFromInt(1), WeightUnit: domain.Pound}, {Weight: decimal.NewFromInt(20), WeightUnit: domain.Ounce}}}
	label := carriertest.Label(t, c, ports.LabelRequest{Shipment: sh, ShipDate: carriertest.ShipDate})
	if label.TrackingNumber != "9400100000000000000001" || len(label.PackageTrackingNumbers) != 2 || label.Price.String() != "18.7" || string(label.Image) != "%PDF usps" {
		t.Fatalf("label %+v", label)
	}
	pay := srv.Last("POST /payments/v3/payment-authorization").Body
	if carriertest.Get(pay, "roles.0.CRID") != "123456" || carriertest.Get(pay, "roles.0.MID") != "900001" || carriertest.Get(pay, "roles.1.roleName") != "LABEL_OWNER" {
		t.Errorf("payment body %v", pay)
	}
	body := srv.Requests("POST /labels/v3/label")[1].Body
	carriertest.AssertBody(t, body, map[string]any{"toAddress.ZIPCode": "94105", "toAddress.ZIPPlus4": "1234", "toAddress.lastName": "Smith",
		"packageDescription.mailClass": "PRIORITY_MAIL", "packageDescription.weight": 1.25, "packageDescription.customerReference.0.referenceNumber": "PO-7"})
	srv.AssertFailures("POST /labels/v3/label", `{"error":{"code":"400","message":"Invalid address","errors":[{"title":"Address Not Found","detail":"The address is not deliverable."}]}}`,
		"The address is not deliverable", carriertest.LabelCall(c, ports.LabelRequest{Shipment: sh, ShipDate: carriertest.ShipDate}))
}

func TestTrack(t *testing.T) {
	t.Parallel()
	srv, c := setup(t)
	srv.Answer("GET /tracking/v3/tracking/9400100000000000000001", 200, `{"trackingNumber":"9400100000000000000001","statusCategory":"Delivered","trackingEvents":[
		{"eventType":"Delivered, In/At Mailbox","eventTimestamp":"2026-11-27T14:30:00Z","eventCity":"SAN FRANCISCO","eventState":"CA","eventCountry":"","eventCode":"01"},
		{"eventType":"Out for Delivery","eventTimestamp":"2026-11-27T07:10:00Z","eventCity":"SAN FRANCISCO","eventState":"CA","eventCode":"OF"},
		{"eventType":"USPS picked up item","eventTimestamp":"2026-11-25T17:00:00Z","eventCity":"NEW YORK","eventState":"NY","eventCode":"03"},
		{"eventType":"Shipping Label Created, USPS Awaiting Item","eventTimestamp":"2026-11-25T10:00:00Z","eventCity":"NEW YORK","eventState":"NY","eventCode":"GX"}]}`)
	events := carriertest.Track(t, c, "9400100000000000000001")
	carriertest.AssertStatuses(t, events, domain.StatusLabelCreated, domain.StatusInTransit, domain.StatusOutForDelivery, domain.StatusDelivered)
	if q := srv.Last("GET /tracking/v3/tracking/9400100000000000000001").Query["expand"]; len(q) != 1 || q[0] != "DETAIL" {
		t.Errorf("expand %v", q)
	}
	srv.AssertFailures("GET /tracking/v3/tracking/9400100000000000000001", `{"error":{"code":"400","message":"Invalid tracking number","errors":[{"title":"Invalid","detail":"Tracking number is invalid."}]}}`,
		"Tracking number is invalid", carriertest.TrackCall(c, "9400100000000000000001"))
}
