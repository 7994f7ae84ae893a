package fedex_test

import (
	"context"
	"encoding/base64"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/shipping/adapters/fedex"
	"github.com/gocommerce/commerce/modules/shipping/adapters/internal/carrierhttp"
	"github.com/gocommerce/commerce/modules/shipping/adapters/internal/carriertest"
	"github.com/gocommerce/commerce/modules/shipping/domain"
	"github.com/gocommerce/commerce/modules/shipping/ports"
)

func setup(t *testing.T) (*carriertest.Server, *fedex.Carrier) {
	return carriertest.Start(t, "/oauth/token", carrierhttp.Account{ClientID: "key", ClientSecret: "secret", AccountNumber: "740561073"}, fedex.New)
}

func TestRates(t *testing.T) {
	t.Parallel()
	srv, c := setup(t)
	srv.Answer("POST /rate/v1/rates/quotes", 200, `{"transactionId":"t1","output":{"rateReplyDetails":[
		{"serviceType":"FEDEX_GROUND","serviceName":"FedEx Ground®","ratedShipmentDetails":[
			{"rateType":"LIST","totalNetCharge":15.62,"currency":"USD"},{"rateType":"ACCOUNT","totalNetCharge":12.08,"currency":"USD"}],
		 "operationalDetail":{"transitTime":"FOUR_DAYS"}},
		{"serviceType":"FEDEX_2_DAY","serviceName":"FedEx 2Day®","ratedShipmentDetails":[{"rateType":"LIST","totalNetCharge":31.4,"currency":"USD"}],
		 "commit":{"dateDetail":{"dayOfWeek":"FRI","dayFormat":"2026-11-27T16:30:00"}},"operationalDetail":{"transitTime":"TWO_DAYS"}}]}}`)
	req := domain.RateRequest{FromCountry: "US", FromZip: "10001", ToCountry: "US", ToZip: "94105", Currency: "USD", ShipDate: carriertest.ShipDate,
		Parcel: domain.Parcel{WeightKg: decimal.RequireFromString("1.36077711")}}
	rates := carriertest.Rates(t, c, req)
	if len(rates) != 2 || rates[0].Price.String() != "12.08" || !rates[0].IsNegotiatedRate || rates[0].EstimatedDays != 4 || rates[0].ServiceName != "FedEx Ground" {
		t.Fatalf("ground %+v", rates)
	}
	if r := rates[1]; r.Price.String() != "31.4" || r.IsNegotiatedRate || !r.DeliveryDateGuaranteed || r.DeliveryDate.Format(time.DateOnly) != "2026-11-27" {
		t.Fatalf("2day %+v", r)
	}
	srv.AssertSent("POST /rate/v1/rates/quotes", map[string]any{
		"accountNumber.value": "740561073", "requestedShipment.recipient.address.postalCode": "94105",
		"requestedShipment.requestedPackageLineItems.0.weight.value": 1.4, "requestedShipment.requestedPackageLineItems.0.weight.units": "KG",
		"requestedShipment.rateRequestType.0": "ACCOUNT",
	})
	srv.AssertFailures("POST /rate/v1/rates/quotes", `{"transactionId":"t2","errors":[{"code":"RATE.LOCATION.NOSERVICE","message":"FedEx does not serve this location."}]}`,
		"FedEx does not serve this location", carriertest.RatesCall(c, req))
	if srv.TokenCalls() != 1 {
		t.Errorf("tokens %d", srv.TokenCalls())
	}
}

func TestCreateLabelInternational(t *testing.T) {
	t.Parallel()
	srv, c := setup(t)
	pdf := base64.StdEncoding.EncodeToString([]byte("%PDF-1.4 fedex"))
	srv.Answer("POST /ship/v1/shipments", 200, `{"output":{"transactionShipments":[{"masterTrackingNumber":"794953535000","serviceName":"FedEx International Priority",
		"pieceResponses":[{"trackingNumber":"794953535000","packageDocuments":[{"contentType":"LABEL","docType":"PDF","encodedLabel":"`+pdf+`"}]}],
		"completedShipmentDetail":{"shipmentRating":{"shipmentRateDetails":[{"totalNetCharge":88.12,"currency":"USD"}]}}}]}}`)
	sh := &domain.Shipment{ServiceCode: "INTERNATIONAL_PRIORITY",
		ShipFrom:  domain.Address{Name: "Ada", Address1: "1 Main St", City: "New York", State: "NY", Country: "US", Zip: "10001"},
		ShipTo:    domain.Address{Name: "Bea", Address1: "Unter den Linden 1", City: "Berlin", Country: "DE", Zip: "10117"},
		Packages:  []domain.Package{{Weight: decimal.NewFromInt(1), WeightUnit: domain.Kilogram}},
		Options:   domain.Options{SaturdayDelivery: true},
		Insurance: &domain.Insurance{Amount: decimal.RequireFromString("50"), Currency: "USD"},
		CustomsInfo: &domain.CustomsInfo{ContentsType: "merchandise", Items: []domain.CustomsItem{
			{Description: "T-shirt", Quantity: 2, Value: decimal.RequireFromString("25"), Currency: "USD", HSTariffNumber: "610910", OriginCountry: "US"}}}}
	label := carriertest.Label(t, c, ports.LabelRequest{Shipment: sh, ShipDate: carriertest.ShipDate})
	if label.TrackingNumber != "794953535000" || label.Price.String() != "88.12" || label.ContentType != "application/pdf" || string(label.Image) != "%PDF-1.4 fedex" {
		t.Fatalf("label %+v", label)
	}
	srv.AssertSent("POST /ship/v1/shipments", map[string]any{
		"requestedShipment.serviceType": "INTERNATIONAL_PRIORITY", "requestedShipment.shipDatestamp": "2026-11-25",
		"requestedShipment.recipients.0.address.city": "Berlin", "requestedShipment.shippingChargesPayment.paymentType": "SENDER",
		"requestedShipment.customsClearanceDetail.commodities.0.harmonizedCode":      "610910",
		"requestedShipment.customsClearanceDetail.commodities.0.customsValue.amount": 25.0,
		"requestedShipment.shipmentSpecialServices.specialServiceTypes.0":            "SATURDAY_DELIVERY",
	})
	srv.AssertFailures("POST /ship/v1/shipments", `{"errors":[{"code":"SHIPMENT.USER.UNAUTHORIZED","message":"Account is not authorized for this service."}]}`,
		"Account is not authorized", carriertest.LabelCall(c, ports.LabelRequest{Shipment: sh, ShipDate: carriertest.ShipDate}))
}

func TestTrack(t *testing.T) {
	t.Parallel()
	srv, c := setup(t)
	srv.Answer("POST /track/v1/trackingnumbers", 200, `{"output":{"completeTrackResults":[{"trackingNumber":"794953535000","trackResults":[{"scanEvents":[
		{"date":"2026-11-27T14:30:00-08:00","eventType":"DL","eventDescription":"Delivered","scanLocation":{"city":"SAN FRANCISCO","stateOrProvinceCode":"CA","countryCode":"US"}},
		{"date":"2026-11-27T08:02:00-08:00","eventType":"OD","eventDescription":"On FedEx vehicle for delivery","scanLocation":{"city":"SAN FRANCISCO","countryCode":"US"}},
		{"date":"2026-11-25T18:00:00-05:00","eventType":"PU","eventDescription":"Picked up","scanLocation":{"city":"NEW YORK","countryCode":"US"}},
		{"date":"2026-11-25T10:05:00-05:00","eventType":"OC","eventDescription":"Shipment information sent to FedEx","scanLocation":{}}]}]}]}}`)
	events := carriertest.Track(t, c, "794953535000")
	carriertest.AssertStatuses(t, events, domain.StatusLabelCreated, domain.StatusInTransit, domain.StatusOutForDelivery, domain.StatusDelivered)
	if e := events[3]; !e.OccurredAt.Equal(time.Date(2026, 11, 27, 22, 30, 0, 0, time.UTC)) || e.Location != "SAN FRANCISCO, CA, US" {
		t.Errorf("delivered %+v", e)
	}
	if got := carriertest.Get(srv.Last("POST /track/v1/trackingnumbers").Body, "trackingInfo.0.trackingNumberInfo.trackingNumber"); got != "794953535000" {
		t.Errorf("asked for %v", got)
	}
	// An unknown number is an error inside a 200 answer.
	srv.Answer("POST /track/v1/trackingnumbers", 200, `{"output":{"completeTrackResults":[{"trackResults":[{"error":{"code":"TRACKING.TRACKINGNUMBER.NOTFOUND","message":"Tracking number cannot be found."}}]}]}}`)
	if _, err := c.Track(context.Background(), "1"); err == nil || !domain.ErrCarrierRejected.Is(err) {
		t.Errorf("not found: %v", err)
	}
	srv.AssertFailures("POST /track/v1/trackingnumbers", `{"errors":[{"code":"TRACKING.TRACKINGNUMBER.EMPTY","message":"Please provide tracking number."}]}`,
		"Please provide tracking number", carriertest.TrackCall(c, "794953535000"))
}
