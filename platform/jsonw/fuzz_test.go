package jsonw

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// Run for longer with `make fuzz` (each target for FUZZTIME); `go test` runs the seeds.

// Every string, valid UTF-8 or not, is written as encoding/json writes it.
func FuzzString(f *testing.F) {
	for _, s := range []string{"", "plain", `q"b\s`, "<a href='x'>&</a>", "tab\tnl\n\x00\x1f", "é 漢 😀", "\u2028\u2029", "bad \xff\xfe", "\x7f", "\xed\xa0\x80", "\xf4\x90\x80\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := String(nil, s); string(got) != string(want) {
			t.Fatalf("String(%q) = %s, want %s", s, got, want)
		}
		if got, want2 := Strings([]byte("x"), []string{s, s}), "x["+string(want)+","+string(want)+"]"; string(got) != want2 {
			t.Fatalf("Strings(%q) = %s, want %s", s, got, want2)
		}
	})
}

// Every time, whatever its zone offset, year or instant, is written as encoding/json
// writes it (null where encoding/json refuses it, as Value does).
func FuzzTime(f *testing.F) {
	f.Add(int64(0), int64(0), 0)
	f.Add(int64(1795395723), int64(450000000), 3600)
	f.Add(int64(1795395723), int64(123), -5*3600-30*60)
	f.Add(int64(-62135596800), int64(0), 0)     // year 1
	f.Add(int64(253402300800), int64(0), 0)     // year 10000
	f.Add(int64(1795395723), int64(1), 24*3600) // offset outside RFC 3339
	f.Add(int64(1795395723), int64(999999999), -86399)
	f.Fuzz(func(t *testing.T, sec, nsec int64, offset int) {
		tm := time.Unix(sec, nsec).In(time.FixedZone("z", offset))
		want, err := json.Marshal(tm)
		if err != nil {
			want = []byte("null")
		}
		if got := Time(nil, tm); string(got) != string(want) {
			t.Fatalf("Time(%v, offset %d) = %s, want %s", tm, offset, got, want)
		}
		if got := TimePtr(nil, &tm); string(got) != string(want) {
			t.Fatalf("TimePtr(%v) = %s, want %s", tm, got, want)
		}
	})
}

// Every decimal that parses is written as its MarshalJSON writes it.
func FuzzDecimal(f *testing.F) {
	for _, s := range []string{"0", "19.90", "-0.5", "1234567890.123456789", "1e3", "-1.5e-7", "0.000"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := decimal.NewFromString(s)
		if err != nil || d.Exponent() < -64 || d.Exponent() > 64 { // String writes every digit
			return
		}
		want, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		if got := Decimal(nil, d); string(got) != string(want) {
			t.Fatalf("Decimal(%s) = %s, want %s", s, got, want)
		}
	})
}
