package dhl_test

import (
	"context"
	"encoding/base64"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/shipping/adapters/dhl"
	"github.com/gocommerce/commerce/modules/shipping/adapters/internal/carrierhttp"
	"github.com/gocommerce/commerce/modules/shipping/adapters/internal/carriertest"
	"github.com/gocommerce/commerce/modules/shipping/domain"
	"github.com/gocommerce/commerce/modules/shipping/ports"
)

func setup(t *testing.T) (*carriertest.Server, *dhl.Carrier) {
	return carriertest.Start(t, "", carrierhttp.Account{ClientID: "apikey", ClientSecret: "apisecret", AccountNumber: "123456789"}, dhl.New)
}

func TestRates(t *testing.T) {
	t.Parallel()
	srv, c := setup(t)
	srv.Answer("GET /rates", 200, `{"products":[
		{"productName":"EXPRESS WORLDWIDE","productCode":"P","isCustomerAgreement":false,"totalPrice":[
			{"currencyType":"BILLC","priceCurrency":"EUR","price":84.3},{"currencyType":"PULCL","priceCurrency":"USD","price":91.9}],
		 "deliveryCapabilities":{"estimatedDeliveryDateAndTime":"2026-11-27T23:59:00","totalTransitDays":"2"}},
		{"productName":"EXPRESS 9:00","productCode":"K","isCustomerAgreement":true,"totalPrice":[{"currencyType":"BILLC","priceCurrency":"EUR","price":131.05}],
		 "deliveryCapabilities":{"estimatedDeliveryDateAndTime":"2026-11-26T09:00:00","totalTransitDays":1}}]}`)
	req := domain.RateRequest{FromCountry: "DE", FromZip: "10117", ToCountry: "GB", ToZip: "SW1A 1AA", Currency: "EUR", ShipDate: carriertest.ShipDate,
		Parcel: domain.Parcel{WeightKg: decimal.RequireFromString("2.5"), HasDimensions: true, LengthCm: decimal.NewFromInt(30),
			WidthCm: decimal.NewFromInt(20), HeightCm: decimal.RequireFromString("10.2")}}
	rates := carriertest.Rates(t, c, req)
	if len(rates) != 2 || rates[0].Price.String() != "84.3" || rates[0].Currency != "EUR" || rates[0].EstimatedDays != 2 || rates[0].ServiceName != "DHL EXPRESS WORLDWIDE" {
		t.Fatalf("rates %+v", rates)
	}
	if !rates[1].IsNegotiatedRate || rates[1].DeliveryDate.Format(time.DateOnly) != "2026-11-26" {
		t.Errorf("9:00 %+v", rates[1])
	}
	q := srv.Last("GET /rates").Query
	for k, want := range map[string]string{"accountNumber": "123456789", "originCountryCode": "DE", "destinationPostalCode": "SW1A 1AA",
		"weight": "2.5", "height": "11", "plannedShippingDate": "2026-11-25", "isCustomsDeclarable": "true", "unitOfMeasurement": "metric"} {
		if got := q[k]; len(got) != 1 || got[0] != want {
			t.Errorf("%s = %v, want %s", k, got, want)
		}
	}
	req.ServiceCode = "K"
	if rates, _ := c.Rates(context.Background(), req); len(rates) != 1 || rates[0].ServiceCode != "K" {
		t.Errorf("service filter %+v", rates)
	}
	srv.AssertFailures("GET /rates", `{"instance":"/expressapi/rates","detail":"Product not available between this origin and destination","title":"Product not found","message":"Not Found","status":"400"}`,
		"Product not available", carriertest.RatesCall(c, req))
}

func TestCreateLabel(t *testing.T) {
	t.Parallel()
	srv, c := setup(t)
	pdf := base64.StdEncoding.EncodeToString([]byte("%PDF dhl"))
	srv.Answer("POST /shipments", 201, `{"shipmentTrackingNumber":"1234567890","trackingUrl":"https://api.dhl.com/track/1234567890",
		"packages":[{"referenceNumber":1,"trackingNumber":"JD014600003828542860"}],
		"documents":[{"imageFormat":"PDF","content":"`+pdf+`","typeCode":"label"}],
		"shipmentCharges":[{"currencyType":"BILLC","priceCurrency":"USD","price":147.25}]}`)
	sh := &domain.Shipment{ServiceCode: "P", Reference: "PO-7",
		ShipFrom:    domain.Address{Name: "Ada", Address1: "1 Main St", City: "New York", State: "NY", Country: "US", Zip: "10001", Phone: "555"},
		ShipTo:      domain.Address{Name: "Bea", Company: "Bea GmbH", Address1: "Unter den Linden 1", City: "Berlin", Country: "DE", Zip: "10117"},
		Packages:    []domain.Package{{Weight: decimal.NewFromInt(3), WeightUnit: domain.Pound}},
		Insurance:   &domain.Insurance{Amount: decimal.RequireFromString("150"), Currency: "USD"},
		CustomsInfo: &domain.CustomsInfo{ContentsType: "merchandise", Items: []domain.CustomsItem{{Description: "T-shirt", Quantity: 2, Value: decimal.RequireFromString("25"), Currency: "USD", HSTariffNumber: "610910", OriginCountry: "US"}}}}
	label := carriertest.Label(t, c, ports.LabelRequest{Shipment: sh, ShipDate: carriertest.ShipDate})
	if label.TrackingNumber != "1234567890" || label.PackageTrackingNumbers[0] != "JD014600003828542860" || label.Price.String() != "147.25" || string(label.Image) != "%PDF dhl" {
		t.Fatalf("label %+v", label)
	}
	srv.AssertSent("POST /shipments", map[string]any{
		"productCode": "P", "accounts.0.number": "123456789", "plannedShippingDateAndTime": "2026-11-25T10:00:00 GMT+00:00",
		"customerDetails.receiverDetails.postalAddress.cityName": "Berlin", "customerDetails.receiverDetails.contactInformation.companyName": "Bea GmbH",
		"content.packages.0.weight": 1.361, "content.isCustomsDeclarable": true, "content.declaredValue": 50.0,
		"content.exportDeclaration.lineItems.0.commodityCodes.0.value": "610910", "valueAddedServices.0.serviceCode": "II",
		"customerReferences.0.value": "PO-7",
	})
	srv.AssertFailures("POST /shipments", `{"instance":"/expressapi/shipments","detail":"1001: The requested product(s) (P) not available","title":"Product not available","status":"400"}`,
		"The requested product(s) (P) not available", carriertest.LabelCall(c, ports.LabelRequest{Shipment: sh, ShipDate: carriertest.ShipDate}))
}

func TestTrack(t *testing.T) {
	t.Parallel()
	srv, c := setup(t)
	srv.Answer("GET /shipments/1234567890/tracking", 200, `{"shipments":[{"shipmentTrackingNumber":"1234567890","status":"Success","events":[
		{"date":"2026-11-25","time":"18:10:00","GMTOffset":"-05:00","typeCode":"PU","description":"Shipment picked up","serviceArea":[{"code":"JFK","description":"New York - USA"}]},
		{"date":"2026-11-26","time":"06:00:00","GMTOffset":"+01:00","typeCode":"NH","description":"Delivery attempted; recipient not home","serviceArea":[{"code":"BER","description":"Berlin - Germany"}]},
		{"date":"2026-11-27","time":"08:00:00","GMTOffset":"+01:00","typeCode":"WC","description":"With delivery courier","serviceArea":[{"code":"BER","description":"Berlin - Germany"}]},
		{"date":"2026-11-27","time":"11:45:00","GMTOffset":"+01:00","typeCode":"OK","description":"Delivered","serviceArea":[{"code":"BER","description":"Berlin - Germany"}]}]}]}`)
	events := carriertest.Track(t, c, "1234567890")
	carriertest.AssertStatuses(t, events, domain.StatusInTransit, domain.StatusException, domain.StatusOutForDelivery, domain.StatusDelivered)
	if e := events[0]; !e.OccurredAt.Equal(time.Date(2026, 11, 25, 23, 10, 0, 0, time.UTC)) || e.Location != "New York - USA" {
		t.Errorf("pickup %+v", e)
	}
	srv.AssertFailures("GET /shipments/1234567890/tracking", `{"title":"Not Found","detail":"No shipment with given tracking number found","status":"404"}`,
		"No shipment with given tracking number found", carriertest.TrackCall(c, "1234567890"))
}
