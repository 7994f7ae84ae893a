package domain

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/apperr"
)

func TestMovementTypeFor(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		reason string
		delta  int
		want   MovementType
	}{
		{"damaged", -1, MovementLost}, {"damaged", 1, MovementIn},
		{"lost", -2, MovementLost}, {"lost", 2, MovementFound},
		{"found", 3, MovementFound}, {"found", -3, MovementOut},
		{"count", 4, MovementIn}, {"count", -4, MovementOut}, {"count", 0, MovementIn},
		{"return", 1, MovementReturn}, {"return", -1, MovementOut},
		{"other", 1, MovementIn}, {"other", -1, MovementOut},
		{"cycle count", 5, MovementIn}, {"broken in transit", -5, MovementOut},
	} {
		if got := MovementTypeFor(tc.reason, tc.delta); got != tc.want || !got.Valid() {
			t.Errorf("MovementTypeFor(%q, %d) = %q, want %q", tc.reason, tc.delta, got, tc.want)
		}
	}
	if MovementType("sold").Valid() || AdjustReason("stolen").Valid() || !AdjustReason("return").Valid() {
		t.Error("validity")
	}
}

func TestStatusOf(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		available, threshold int
		want                 StockStatus
	}{
		{-3, 5, OutOfStock}, {0, 5, OutOfStock}, {0, 0, OutOfStock}, {1, 5, LowStock}, {5, 5, LowStock},
		{6, 5, InStock}, {1, 0, InStock}, {1, -1, InStock},
	} {
		if got := StatusOf(tc.available, tc.threshold); got != tc.want {
			t.Errorf("StatusOf(%d, %d) = %q, want %q", tc.available, tc.threshold, got, tc.want)
		}
	}
	l := ProductLevel{LowStockThreshold: 2, Totals: Quantities{Available: 1, Incoming: 5}}
	if l.Status(false) != LowStock || l.Status(true) != InStock {
		t.Errorf("level status %q / %q", l.Status(false), l.Status(true))
	}
	if StockStatus("meh").Valid() || !LowStock.Valid() {
		t.Error("validity")
	}
}

func TestQuantities(t *testing.T) {
	t.Parallel()
	q := Quantities{Available: 5, Reserved: 2, Incoming: 3}
	type op func(Quantities) (Quantities, error)
	for _, tc := range []struct {
		name string
		op   op
		want Quantities
		err  error
	}{
		{"adjust up", func(q Quantities) (Quantities, error) { return q.Adjust(4, PolicyDeny) }, Quantities{9, 2, 3}, nil},
		{"adjust to zero", func(q Quantities) (Quantities, error) { return q.Adjust(-5, PolicyDeny) }, Quantities{0, 2, 3}, nil},
		{"adjust below zero", func(q Quantities) (Quantities, error) { return q.Adjust(-6, PolicyDeny) }, q, ErrInventoryNegative},
		{"backorder below zero", func(q Quantities) (Quantities, error) { return q.Adjust(-6, PolicyContinue) }, Quantities{-1, 2, 3}, nil},
		{"set", func(q Quantities) (Quantities, error) { return q.Set(0, PolicyDeny) }, Quantities{0, 2, 3}, nil},
		{"set negative", func(q Quantities) (Quantities, error) { return q.Set(-1, PolicyDeny) }, q, ErrInventoryNegative},
		{"set negative backorder", func(q Quantities) (Quantities, error) { return q.Set(-1, PolicyContinue) }, Quantities{-1, 2, 3}, nil},
		{"receive consumes incoming", func(q Quantities) (Quantities, error) { return q.Receive(2) }, Quantities{7, 2, 1}, nil},
		{"receive more than incoming", func(q Quantities) (Quantities, error) { return q.Receive(10) }, Quantities{15, 2, 0}, nil},
		{"receive nothing", func(q Quantities) (Quantities, error) { return q.Receive(0) }, q, ErrInvalidQuantity},
		{"reserve", func(q Quantities) (Quantities, error) { return q.Reserve(5, PolicyDeny) }, Quantities{0, 7, 3}, nil},
		{"reserve too much", func(q Quantities) (Quantities, error) { return q.Reserve(6, PolicyDeny) }, q, ErrInsufficientInventory},
		{"reserve backorder", func(q Quantities) (Quantities, error) { return q.Reserve(6, PolicyContinue) }, Quantities{-1, 8, 3}, nil},
		{"reserve nothing", func(q Quantities) (Quantities, error) { return q.Reserve(0, PolicyContinue) }, q, ErrInvalidQuantity},
		{"release returns", func(q Quantities) (Quantities, error) { return q.Release(2, false) }, Quantities{7, 0, 3}, nil},
		{"release commits", func(q Quantities) (Quantities, error) { return q.Release(2, true) }, Quantities{5, 0, 3}, nil},
		{"transfer out", func(q Quantities) (Quantities, error) { return q.TransferOut(5) }, Quantities{0, 2, 3}, nil},
		{"transfer out too much", func(q Quantities) (Quantities, error) { return q.TransferOut(6) }, q, ErrInventoryNegative},
		{"transfer nothing", func(q Quantities) (Quantities, error) { return q.TransferOut(-1) }, q, ErrInvalidQuantity},
	} {
		got, err := tc.op(q)
		if !errors.Is(err, tc.err) || got != tc.want {
			t.Errorf("%s: %+v, %v; want %+v, %v", tc.name, got, err, tc.want, tc.err)
		}
	}
	if _, err := q.Release(3, false); err == nil {
		t.Error("released more than reserved")
	}
}

func TestReleaseReason(t *testing.T) {
	t.Parallel()
	for _, r := range []ReleaseReason{ReleaseOrderCancelled, ReleaseOrderExpired, ReleaseManual, ReleaseOrderCompleted} {
		if !r.Valid() || r.Commits() != (r == ReleaseOrderCompleted) {
			t.Errorf("%s", r)
		}
	}
	if ReleaseReason("done").Valid() {
		t.Error("unknown reason valid")
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r := Reservation{Status: ReservationActive, ExpiresAt: now}
	if !r.Expired(now) || r.Expired(now.Add(-time.Second)) {
		t.Error("expiry at expires_at")
	}
	r.Status = ReservationReleased
	if r.Expired(now.Add(time.Hour)) {
		t.Error("released reservation expired")
	}
}

func TestNewLocation(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	inactive := false
	l, err := NewLocation("id", NewLocationInput{Name: " Shop ", Code: " S1 ", Country: "fr", IsActive: &inactive}, now)
	if err != nil || l.Name != "Shop" || l.Code != "S1" || l.Country != "FR" || l.IsActive || l.IsDefault || !l.CreatedAt.Equal(now) {
		t.Fatalf("NewLocation = %+v, %v", l, err)
	}
	if l, _ := NewLocation("id", NewLocationInput{Name: "A"}, now); !l.IsActive {
		t.Error("active by default")
	}
	for name, in := range map[string]NewLocationInput{
		"name":    {Name: " "},
		"country": {Name: "A", Country: "FRA"},
		"code":    {Name: "A", Code: strings.Repeat("c", 65)},
		"city":    {Name: "A", City: strings.Repeat("c", 256)},
	} {
		_, err := NewLocation("id", in, now)
		if e, ok := apperr.As(err); !ok || e.Fields[name] == "" {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestMoney(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, currency, want string }{
		{"2.5", "USD", "2.50"}, {"1500", "JPY", "1500"}, {"1.255", "USD", "1.255"}, {"1.2", "KWD", "1.200"}, {"0", "EUR", "0.00"},
		{"3.10", "USD", "3.10"}, {"7.000", "JPY", "7"},
	} {
		d, err := ParseCost(tc.in)
		if err != nil {
			t.Fatalf("ParseCost(%q): %v", tc.in, err)
		}
		if got := FormatMoney(d, tc.currency); got != tc.want {
			t.Errorf("FormatMoney(%s, %s) = %q, want %q", tc.in, tc.currency, got, tc.want)
		}
	}
	for _, bad := range []string{"", "-1", "abc", "1e3", "NaN"} {
		if _, err := ParseCost(bad); err == nil {
			t.Errorf("ParseCost(%q) accepted", bad)
		}
	}
	if MinorUnits("usd") != 2 || MinorUnits("JPY") != 0 || MinorUnits("BHD") != 3 {
		t.Error("minor units")
	}
}
