package ups_test

import (
	"context"
	"encoding/base64"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/shipping/adapters/internal/carrierhttp"
	"github.com/gocommerce/commerce/modules/shipping/adapters/internal/carriertest"
	"github.com/gocommerce/commerce/modules/shipping/adapters/ups"
	"github.com/gocommerce/commerce/modules/shipping/domain"
	"github.com/gocommerce/commerce/modules/shipping/ports"
)

func request(service string) domain.RateRequest {
	return domain.RateRequest{FromCountry: "US", FromZip: "10001", ToCountry: "US", ToZip: "94105", ServiceCode: service,
		Parcel: domain.Parcel{WeightKg: decimal.RequireFromString("2.04"), HasDimensions: true,
			LengthCm: decimal.RequireFromString("30.5"), WidthCm: decimal.NewFromInt(20), HeightCm: decimal.NewFromInt(10)},
		Currency: "USD", ShipDate: carriertest.ShipDate}
}

func shipment() *domain.Shipment {
	a := domain.Address{Name: "Ada", Address1: "1 Main St", City: "New York", State: "NY", Country: "US", Zip: "10001", Phone: "5550100"}
	b := domain.Address{Name: "Bob", Address1: "2 Market St", City: "San Francisco", State: "CA", Country: "US", Zip: "94105"}
	return &domain.Shipment{ID: "s1", Carrier: "ups", ServiceCode: "03", ShipFrom: a, ShipTo: b, Reference: "PO-7",
		Options:   domain.Options{SignatureRequired: true},
		Insurance: &domain.Insurance{Amount: decimal.RequireFromString("150.00"), Currency: "USD"},
		CustomsInfo: &domain.CustomsInfo{ContentsType: "gift", Items: []domain.CustomsItem{
			{Description: "Mug", Quantity: 3, Value: decimal.RequireFromString("12.5"), Currency: "USD", HSTariffNumber: "691200", OriginCountry: "US"}}},
		Packages: []domain.Package{
			{Weight: decimal.NewFromInt(2), WeightUnit: domain.Kilogram},
			{Weight: decimal.NewFromInt(3), WeightUnit: domain.Pound},
		}}
}

func setup(t *testing.T) (*carriertest.Server, *ups.Carrier) {
	return carriertest.Start(t, "/security/v1/oauth/token", carrierhttp.Account{ClientID: "cid", ClientSecret: "csecret", AccountNumber: "A1B2C3"}, ups.New)
}

func TestRates(t *testing.T) {
	t.Parallel()
	srv, c := setup(t)
	// One service: RatedShipment is an object; with negotiated rates.
	srv.Answer("POST /api/rating/v2403/Rate", 200, `{"RateResponse":{"Response":{"ResponseStatus":{"Code":"1","Description":"Success"}},
		"RatedShipment":{"Service":{"Code":"03"},"TotalCharges":{"CurrencyCode":"USD","MonetaryValue":"14.20"},
		"NegotiatedRateCharges":{"TotalCharge":{"CurrencyCode":"USD","MonetaryValue":"11.05"}}}}}`)
	rates := carriertest.Rates(t, c, request("03"))
	if len(rates) != 1 || rates[0].Price.String() != "11.05" || !rates[0].IsNegotiatedRate || rates[0].ServiceName != "UPS Ground" {
		t.Fatalf("rates %+v", rates)
	}
	req := srv.AssertSent("POST /api/rating/v2403/Rate", map[string]any{
		"RateRequest.Request.RequestOption":                                   "Rate",
		"RateRequest.Shipment.Service.Code":                                   "03",
		"RateRequest.Shipment.Shipper.ShipperNumber":                          "A1B2C3",
		"RateRequest.Shipment.ShipTo.Address.PostalCode":                      "94105",
		"RateRequest.Shipment.Package.0.PackageWeight.Weight":                 "2.1", // rounded up
		"RateRequest.Shipment.Package.0.PackageWeight.UnitOfMeasurement.Code": "KGS",
		"RateRequest.Shipment.Package.0.Dimensions.Length":                    "31",
	})
	if req.Header.Get("transId") == "" {
		t.Errorf("no transId header")
	}
	// Every service (Shop): an array, with guaranteed transit days.
	srv.Answer("POST /api/rating/v2403/Shop", 200, `{"RateResponse":{"RatedShipment":[
		{"Service":{"Code":"03"},"TotalCharges":{"CurrencyCode":"USD","MonetaryValue":"14.20"}},
		{"Service":{"Code":"02"},"TotalCharges":{"CurrencyCode":"USD","MonetaryValue":"31.70"},"GuaranteedDelivery":{"BusinessDaysInTransit":"2"}}]}}`)
	rates = carriertest.Rates(t, c, request(""))
	if len(rates) != 2 || rates[1].EstimatedDays != 2 || !rates[1].DeliveryDateGuaranteed || rates[1].DeliveryDate.Format(time.DateOnly) != "2026-11-27" {
		t.Fatalf("shop %+v", rates)
	}
	if srv.TokenCalls() != 1 {
		t.Errorf("token asked %d times, want once (cached)", srv.TokenCalls())
	}
	srv.AssertFailures("POST /api/rating/v2403/Shop", `{"response":{"errors":[{"code":"111210","message":"The requested service is unavailable between the selected locations."}]}}`,
		"111210 The requested service is unavailable", carriertest.RatesCall(c, request("")))
}

func TestCreateLabel(t *testing.T) {
	t.Parallel()
	srv, c := setup(t)
	png := base64.StdEncoding.EncodeToString([]byte("\x89PNG label"))
	srv.Answer("POST /api/shipments/v2409/ship", 200, `{"ShipmentResponse":{"Response":{"ResponseStatus":{"Code":"1"}},"ShipmentResults":{
		"ShipmentCharges":{"TotalCharges":{"CurrencyCode":"USD","MonetaryValue":"27.45"}},
		"ShipmentIdentificationNumber":"1ZA1B2C30312345678",
		"PackageResults":[{"TrackingNumber":"1ZA1B2C30312345678","ShippingLabel":{"ImageFormat":{"Code":"PNG"},"GraphicImage":"`+png+`"}},
		                  {"TrackingNumber":"1ZA1B2C30312345687","ShippingLabel":{"ImageFormat":{"Code":"PNG"},"GraphicImage":"`+png+`"}}]}}}`)
	label := carriertest.Label(t, c, ports.LabelRequest{Shipment: shipment(), ShipDate: carriertest.ShipDate})
	if label.TrackingNumber != "1ZA1B2C30312345678" || len(label.PackageTrackingNumbers) != 2 || label.PackageTrackingNumbers[1] != "1ZA1B2C30312345687" ||
		label.Price.String() != "27.45" || label.ContentType != "image/png" || string(label.Image) != "\x89PNG label" {
		t.Fatalf("label %+v", label)
	}
	srv.AssertSent("POST /api/shipments/v2409/ship", map[string]any{
		"ShipmentRequest.Shipment.Shipper.ShipperNumber":                                       "A1B2C3",
		"ShipmentRequest.Shipment.ShipTo.Address.City":                                         "San Francisco",
		"ShipmentRequest.Shipment.PaymentInformation.ShipmentCharge.BillShipper.AccountNumber": "A1B2C3",
		"ShipmentRequest.Shipment.Package.1.PackageWeight.Weight":                              "1.4", // 3 lb = 1.36077711 kg
		"ShipmentRequest.Shipment.ShipmentServiceOptions.DeliveryConfirmation.DCISType":        "1",
		"ShipmentRequest.Shipment.ReferenceNumber.Value":                                       "PO-7",
	})
	srv.AssertFailures("POST /api/shipments/v2409/ship", `{"response":{"errors":[{"code":"120100","message":"Missing or invalid shipper number"}]}}`,
		"Missing or invalid shipper number", carriertest.LabelCall(c, ports.LabelRequest{Shipment: shipment(), ShipDate: carriertest.ShipDate}))
}

func TestTrack(t *testing.T) {
	t.Parallel()
	srv, c := setup(t)
	srv.Answer("GET /api/track/v1/details/1ZA1B2C30312345678", 200, `{"trackResponse":{"shipment":[{"package":[{"trackingNumber":"1ZA1B2C30312345678","activity":[
		{"location":{"address":{"city":"San Francisco","stateProvince":"CA","countryCode":"US"}},"status":{"type":"D","description":"DELIVERED","code":"FS"},"date":"20261127","time":"143000"},
		{"location":{"address":{"city":"Oakland","stateProvince":"CA","countryCode":"US"}},"status":{"type":"O","description":"Out For Delivery Today","code":"OT"},"date":"20261127","time":"080000"},
		{"location":{"address":{"city":"Secaucus","stateProvince":"NJ","countryCode":"US"}},"status":{"type":"I","description":"Departed from Facility","code":"DP"},"date":"20261125","time":"220000"},
		{"location":{"address":{"countryCode":"US"}},"status":{"type":"M","description":"Shipper created a label","code":"MP"},"date":"20261125","time":"100500"}]}]}]}}`)
	events := carriertest.Track(t, c, "1ZA1B2C30312345678")
	carriertest.AssertStatuses(t, events, domain.StatusLabelCreated, domain.StatusInTransit, domain.StatusOutForDelivery, domain.StatusDelivered)
	if e := events[3]; e.Location != "San Francisco, CA, US" || e.OccurredAt != time.Date(2026, 11, 27, 14, 30, 0, 0, time.UTC) || e.Description != "DELIVERED" {
		t.Errorf("delivered %+v", e)
	}
	srv.AssertFailures("GET /api/track/v1/details/1ZA1B2C30312345678", `{"response":{"errors":[{"code":"TW0001","message":"Invalid tracking number"}]}}`,
		"Invalid tracking number", carriertest.TrackCall(c, "1ZA1B2C30312345678"))
}

func TestBadCredentialsAreUnavailable(t *testing.T) {
	t.Parallel()
	srv := carriertest.New(t, "/security/v1/oauth/token", "cid", "csecret")
	c := ups.New(carrierhttp.Account{ClientID: "cid", ClientSecret: "wrong", BaseURL: srv.URL})
	if _, err := c.Rates(context.Background(), request("")); err == nil || !domain.ErrCarrierUnavailable.Is(err) {
		t.Errorf("bad credentials: %v", err)
	}
}
