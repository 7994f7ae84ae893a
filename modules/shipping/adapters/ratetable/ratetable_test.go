package ratetable_test

import (
	"bytes"
	"context"
	"errors"
	"regexp"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/shipping/adapters/ratetable"
	"github.com/gocommerce/commerce/modules/shipping/domain"
	"github.com/gocommerce/commerce/modules/shipping/ports"
)

func TestBrackets(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"0.1": "0.5", "0.5": "0.5", "0.5001": "1", "1.99": "2", "2": "2", "2.0001": "3", "29.2": "30", "30": "30", "30.1": "35", "68": "70",
	} {
		if got := ratetable.Bracket(decimal.RequireFromString(in)); !got.Equal(decimal.RequireFromString(want)) {
			t.Errorf("Bracket(%s) = %s, want %s", in, got, want)
		}
	}
}

func TestLimitsAndRoutes(t *testing.T) {
	t.Parallel()
	ship := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC) // a Friday
	req := domain.RateRequest{FromCountry: "US", FromZip: "10001", ToCountry: "US", ToZip: "94105", ShipDate: ship,
		Parcel: domain.Parcel{WeightKg: decimal.NewFromInt(1)}}
	rates, err := ratetable.New(domain.USPS).Rates(context.Background(), req)
	if err != nil || len(rates) != 3 {
		t.Fatalf("usps domestic %v %v", rates, err)
	}
	// Priority Mail: 3 business days from Friday is Wednesday.
	for _, r := range rates {
		if r.ServiceCode == "PRIORITY_MAIL" && r.DeliveryDate.Format(time.DateOnly) != "2026-12-02" {
			t.Errorf("delivery date %v", r.DeliveryDate)
		}
	}
	// Longer than USPS's 108 cm: no USPS service.
	req.Parcel = domain.Parcel{WeightKg: decimal.NewFromInt(1), HasDimensions: true, LengthCm: decimal.NewFromInt(120), WidthCm: decimal.NewFromInt(10), HeightCm: decimal.NewFromInt(10)}
	if rates, _ := ratetable.New(domain.USPS).Rates(context.Background(), req); len(rates) != 0 {
		t.Errorf("oversize accepted: %v", rates)
	}
	if rates, _ := ratetable.New(domain.UPS).Rates(context.Background(), req); len(rates) == 0 {
		t.Errorf("UPS refused a 120 cm parcel")
	}
	if ratetable.New("royalmail") != nil {
		t.Error("unknown carrier has a table")
	}
}

func TestLabel(t *testing.T) {
	t.Parallel()
	sh := &domain.Shipment{ServiceCode: "PRIORITY_MAIL",
		ShipFrom: domain.Address{Name: "Ada (Shop)", Address1: "1 Main", City: "NYC", Country: "US", Zip: "10001"},
		ShipTo:   domain.Address{Name: "Zoë", Address1: "2 Side", City: "SF", Country: "US", Zip: "94105"},
		Packages: []domain.Package{{Weight: decimal.NewFromInt(1), WeightUnit: domain.Kilogram}, {Weight: decimal.NewFromInt(40), WeightUnit: domain.Ounce}}}
	label, err := ratetable.New(domain.USPS).CreateLabel(context.Background(), ports.LabelRequest{Shipment: sh, ShipDate: time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^9400\d{18}$`).MatchString(label.TrackingNumber) || len(label.PackageTrackingNumbers) != 2 {
		t.Errorf("tracking %q %v", label.TrackingNumber, label.PackageTrackingNumbers)
	}
	// Priority Mail domestic 12.60 + 2.30 × bracket: 1 kg → 14.90; 40 oz = 1.134 kg → 1.5 → 16.05.
	if label.Price.String() != "30.95" || label.ContentType != "application/pdf" {
		t.Errorf("price %s", label.Price)
	}
	if !bytes.HasPrefix(label.Image, []byte("%PDF-1.4")) || !bytes.Contains(label.Image, []byte(`Ada \(Shop\)`)) || !bytes.Contains(label.Image, []byte("Zo?")) ||
		!bytes.HasSuffix(label.Image, []byte("%%EOF\n")) {
		t.Errorf("label file %q", label.Image)
	}
	sh.ServiceCode = "PRIORITY_MAIL_INTERNATIONAL"
	sh.ShipFrom.Country = "CA"
	if _, err := ratetable.New(domain.USPS).CreateLabel(context.Background(), ports.LabelRequest{Shipment: sh}); !errors.Is(err, domain.ErrInvalidServiceCode) {
		t.Errorf("USPS from Canada: %v", err)
	}
	for carrier, pattern := range map[string]string{domain.UPS: `^1Z\d{6}03\d{8}$`, domain.FedEx: `^\d{12}$`, domain.DHL: `^\d{10}$`} {
		sh := &domain.Shipment{ServiceCode: map[string]string{domain.UPS: "03", domain.FedEx: "FEDEX_GROUND", domain.DHL: "N"}[carrier],
			ShipFrom: domain.Address{Country: "US", Zip: "10001"}, ShipTo: domain.Address{Country: "US", Zip: "94105"},
			Packages: []domain.Package{{Weight: decimal.NewFromInt(1), WeightUnit: domain.Kilogram}}}
		label, err := ratetable.New(carrier).CreateLabel(context.Background(), ports.LabelRequest{Shipment: sh})
		if err != nil || !regexp.MustCompile(pattern).MatchString(label.TrackingNumber) {
			t.Errorf("%s: %q %v", carrier, label.TrackingNumber, err)
		}
	}
}
