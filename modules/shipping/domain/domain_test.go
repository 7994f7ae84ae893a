package domain_test

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/shipping/domain"
)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// TestUnitConversionIsExact: into kg and cm exactly, out of them rounded to
// ConvertedDecimals places.
func TestUnitConversionIsExact(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		value, unit string
		convert     func(decimal.Decimal) decimal.Decimal
		want        string
	}{
		{"1", "kg to kg", domain.Kilogram.ToKg, "1"},
		{"2.5", "kg to kg", domain.Kilogram.ToKg, "2.5"},
		{"1", "lb to kg", domain.Pound.ToKg, "0.45359237"},
		{"2.2046", "lb to kg", domain.Pound.ToKg, "0.999989738902"},
		{"16", "oz to kg", domain.Ounce.ToKg, "0.45359237"},
		{"1", "oz to kg", domain.Ounce.ToKg, "0.028349523125"},
		{"0.0001", "oz to kg", domain.Ounce.ToKg, "0.0000028349523125"},
		{"1000", "g to kg", domain.Gram.ToKg, "1"},
		{"1", "g to kg", domain.Gram.ToKg, "0.001"},
		{"9999.9999", "lb to kg", domain.Pound.ToKg, "4535.923654640763"},
		{"1", "in to cm", domain.Inch.ToCm, "2.54"},
		{"12", "in to cm", domain.Inch.ToCm, "30.48"},
		{"0.5", "in to cm", domain.Inch.ToCm, "1.27"},
		{"30", "cm to cm", domain.Centimetre.ToCm, "30"},
		{"274", "cm to in", domain.Inch.FromCm, "107.874"},
		{"70", "kg to lb", domain.Pound.FromKg, "154.3236"},
		{"1.5", "kg to g", domain.Gram.FromKg, "1500"},
	} {
		if got := c.convert(dec(c.value)); !got.Equal(dec(c.want)) || got.String() != dec(c.want).String() {
			t.Errorf("%s %s = %s, want %s", c.value, c.unit, got, c.want)
		}
	}
}

func TestParcelBillableWeight(t *testing.T) {
	t.Parallel()
	p := domain.Parcel{WeightKg: dec("1"), HasDimensions: true, LengthCm: dec("30"), WidthCm: dec("30"), HeightCm: dec("30")}
	if got := p.DimensionalWeightKg(5000); !got.Equal(dec("5.4")) {
		t.Errorf("dimensional %s", got)
	}
	if got := p.BillableKg(5000); !got.Equal(dec("5.4")) {
		t.Errorf("billable %s", got)
	}
	heavy := domain.Parcel{WeightKg: dec("10"), HasDimensions: true, LengthCm: dec("10"), WidthCm: dec("10"), HeightCm: dec("10")}
	if got := heavy.BillableKg(5000); !got.Equal(dec("10")) {
		t.Errorf("billable %s", got)
	}
	if got := (domain.Parcel{WeightKg: dec("3")}).BillableKg(5000); !got.Equal(dec("3")) {
		t.Errorf("no dimensions %s", got)
	}
	s := domain.Parcel{LengthCm: dec("10"), WidthCm: dec("40"), HeightCm: dec("20")}.Sides()
	if !s[0].Equal(dec("40")) || !s[2].Equal(dec("10")) {
		t.Errorf("sides %v", s)
	}
}

func TestParseParcel(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in    domain.ParcelInput
		field string
	}{
		{domain.ParcelInput{Weight: "1"}, ""},
		{domain.ParcelInput{Weight: "1", WeightUnit: "LB"}, ""},
		{domain.ParcelInput{}, "weight"},
		{domain.ParcelInput{Weight: "0"}, "weight"},
		{domain.ParcelInput{Weight: "1.00001"}, "weight"},
		{domain.ParcelInput{Weight: "+1"}, "weight"},
		{domain.ParcelInput{Weight: "10000.0001"}, "weight"},
		{domain.ParcelInput{Weight: "22046.3", WeightUnit: "lb"}, "weight"},
		{domain.ParcelInput{Weight: "1", WeightUnit: "kgs"}, "weight_unit"},
		{domain.ParcelInput{Weight: "1", Length: "1", Width: "1"}, "height"},
		{domain.ParcelInput{Weight: "1", Length: "1", Width: "1", Height: "1", DimensionUnit: "ft"}, "dimension_unit"},
		{domain.ParcelInput{Weight: "1", Length: "4000", Width: "1", Height: "1", DimensionUnit: "in"}, "length"},
	} {
		p := domain.Problems{}
		domain.ValidateParcel(p, c.in)
		if c.field == "" && len(p) > 0 || c.field != "" && p[c.field] == "" {
			t.Errorf("%+v: problems %v, want %q", c.in, p, c.field)
		}
	}
}

func TestZonesAndCountries(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		fc, fz, tc, tz string
		zone           domain.Zone
	}{
		{"US", "10001", "US", "10118", domain.ZoneLocal},
		{"US", "10001", "US", "94105", domain.ZoneDomestic},
		{"DE", "10115", "FR", "75001", domain.ZoneRegional},
		{"US", "10001", "CA", "M5V 2T6", domain.ZoneRegional},
		{"US", "10001", "JP", "100-0001", domain.ZoneInternational},
	} {
		if got := domain.ZoneOf(c.fc, c.fz, c.tc, c.tz); got != c.zone {
			t.Errorf("%s %s → %s %s: %s, want %s", c.fc, c.fz, c.tc, c.tz, got, c.zone)
		}
	}
	for code, ok := range map[string]bool{"US": true, "DE": true, "AQ": true, "XK": false, "UK": false, "us": false} {
		if domain.ValidCountry(code) != ok {
			t.Errorf("ValidCountry(%s) = %v", code, !ok)
		}
	}
	for _, c := range []struct{ country, zip, norm string }{
		{"US", "94105-1234", "94105-1234"}, {"CA", "m5v 2t6", "M5V 2T6"}, {"GB", "SW1A 1AA", "SW1A 1AA"}, {"NZ", "6011", "6011"},
	} {
		if z, msg := domain.NormalizeZip(c.country, c.zip); msg != "" || z != c.norm {
			t.Errorf("%s %s: %q %q", c.country, c.zip, z, msg)
		}
	}
	for _, c := range []struct{ country, zip string }{{"US", "9410"}, {"DE", "1011"}, {"FR", "x"}, {"NZ", "60 11 abc def"}} {
		if _, msg := domain.NormalizeZip(c.country, c.zip); msg == "" {
			t.Errorf("%s %s accepted", c.country, c.zip)
		}
	}
	if domain.NeedsCustoms("DE", "FR") || !domain.NeedsCustoms("DE", "CH") || !domain.NeedsCustoms("US", "CA") || domain.NeedsCustoms("US", "US") {
		t.Error("customs borders")
	}
}

func TestStatusMachine(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	ev := func(s domain.Status, h int) domain.TrackingEvent {
		return domain.TrackingEvent{Status: s, OccurredAt: t0.Add(time.Duration(h) * time.Hour)}
	}
	sh := &domain.Shipment{Status: domain.StatusLabelCreated}
	// Out of order events: the newest decides; shipped_at is the first movement.
	changed, prev := sh.Track([]domain.TrackingEvent{ev(domain.StatusOutForDelivery, 5), ev(domain.StatusInTransit, 2)})
	if !changed || prev != domain.StatusLabelCreated || sh.Status != domain.StatusOutForDelivery || !sh.ShippedAt.Equal(t0.Add(2*time.Hour)) {
		t.Fatalf("%v %v %+v", changed, prev, sh)
	}
	// Backwards is refused.
	if changed, _ := sh.Track([]domain.TrackingEvent{ev(domain.StatusInTransit, 6)}); changed || sh.Status != domain.StatusOutForDelivery {
		t.Errorf("moved back to %s", sh.Status)
	}
	// An exception, then recovery.
	sh.Track([]domain.TrackingEvent{ev(domain.StatusException, 7)})
	if sh.Status != domain.StatusException {
		t.Fatalf("status %s", sh.Status)
	}
	sh.Track([]domain.TrackingEvent{ev(domain.StatusDelivered, 9)})
	if sh.Status != domain.StatusDelivered || !sh.DeliveredAt.Equal(t0.Add(9*time.Hour)) {
		t.Fatalf("status %s at %v", sh.Status, sh.DeliveredAt)
	}
	// Final.
	if changed, _ := sh.Track([]domain.TrackingEvent{ev(domain.StatusException, 10)}); changed {
		t.Error("delivered moved")
	}
	for from, tos := range map[domain.Status][]domain.Status{
		domain.StatusPending:        {domain.StatusLabelCreated, domain.StatusCancelled},
		domain.StatusLabelCreated:   {domain.StatusInTransit, domain.StatusDelivered, domain.StatusCancelled},
		domain.StatusInTransit:      {domain.StatusOutForDelivery, domain.StatusDelivered, domain.StatusException},
		domain.StatusOutForDelivery: {domain.StatusDelivered, domain.StatusException},
		domain.StatusException:      {domain.StatusInTransit, domain.StatusDelivered, domain.StatusCancelled},
	} {
		for _, to := range tos {
			if !from.CanMoveTo(to) {
				t.Errorf("%s → %s refused", from, to)
			}
		}
	}
	for _, bad := range [][2]domain.Status{
		{domain.StatusInTransit, domain.StatusCancelled}, {domain.StatusDelivered, domain.StatusInTransit},
		{domain.StatusCancelled, domain.StatusLabelCreated}, {domain.StatusOutForDelivery, domain.StatusLabelCreated},
	} {
		if bad[0].CanMoveTo(bad[1]) {
			t.Errorf("%s → %s allowed", bad[0], bad[1])
		}
	}
}

func TestExchange(t *testing.T) {
	t.Parallel()
	e := domain.NewExchange(map[string]string{"ISK": "138", "EUR": "0.9"})
	if got, ok := e.Convert(dec("10"), "USD", "EUR"); !ok || got.String() != "9" {
		t.Errorf("USD→EUR %s", got)
	}
	if got, ok := e.Convert(dec("100"), "EUR", "JPY"); !ok || got.String() != "16667" {
		t.Errorf("EUR→JPY %s", got)
	}
	if _, ok := e.Convert(dec("1"), "USD", "XYZ"); ok {
		t.Error("unknown currency converted")
	}
	if !e.Supports("ISK") {
		t.Error("override ignored")
	}
}
