package jsonw

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

func marshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Each writer appends what encoding/json writes for the same value.
func TestWritersMatchEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", `q"b\s`, "<a href='x'>&</a>", "tab\tnl\n\x00\x1f", "é ü 漢 😀", "\u2028\u2029", "bad \xff\xfe utf8", "\x7f"} {
		if got, want := string(String(nil, s)), marshal(t, s); got != want {
			t.Errorf("String(%q) = %s, want %s", s, got, want)
		}
		if got, want := string(StringPtr(nil, &s)), marshal(t, &s); got != want {
			t.Errorf("StringPtr(%q) = %s, want %s", s, got, want)
		}
	}
	if got := string(StringPtr(nil, nil)); got != "null" {
		t.Errorf("StringPtr(nil) = %s", got)
	}
	for _, ss := range [][]string{nil, {}, {"a", "<b>"}} {
		if got, want := string(Strings(nil, ss)), marshal(t, ss); got != want && (ss != nil || got != "[]") {
			t.Errorf("Strings(%q) = %s, want %s", ss, got, want)
		}
	}
	for _, d := range []string{"0", "19.90", "-0.5", "1234567890.123456789", "1e3"} {
		v := decimal.RequireFromString(d)
		if got, want := string(Decimal(nil, v)), marshal(t, v); got != want {
			t.Errorf("Decimal(%s) = %s, want %s", d, got, want)
		}
	}
	for _, tm := range []time.Time{
		{}, time.Date(2026, 11, 23, 1, 2, 3, 0, time.UTC), time.Date(2026, 1, 2, 3, 4, 5, 120000000, time.FixedZone("x", -5*3600)),
	} {
		if got, want := string(Time(nil, tm)), marshal(t, tm); got != want {
			t.Errorf("Time(%v) = %s, want %s", tm, got, want)
		}
	}
	if got, want := string(Int(Bool(nil, true), -42)), "true-42"; got != want {
		t.Errorf("Bool, Int = %s", got)
	}
	if got := string(Elem(append(Elem([]byte{'['}), '1'))); got != "[1," {
		t.Errorf("Elem = %s", got)
	}
	if got := string(Key(Key([]byte{'{'}, "a"), "b")); got != `{"a":,"b":` {
		t.Errorf("Key = %s", got)
	}
}

// Decimal follows decimal.MarshalJSONWithoutQuotes as decimal's MarshalJSON does.
func TestDecimalWithoutQuotes(t *testing.T) {
	decimal.MarshalJSONWithoutQuotes = true
	defer func() { decimal.MarshalJSONWithoutQuotes = false }()
	v := decimal.RequireFromString("12.50")
	if got, want := string(Decimal(nil, v)), marshal(t, v); got != want || got != "12.5" {
		t.Errorf("Decimal = %s, want %s", got, want)
	}
}
