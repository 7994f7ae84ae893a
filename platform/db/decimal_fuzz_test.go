package db_test

import (
	"testing"

	"github.com/jackc/pgx/v5/pgtype"
	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/db"
)

// A numeric read through pgx's binary format into db.Decimal is the decimal that
// decimal.Decimal reads from the same number's text (value and exponent; a zero may
// differ in exponent only), for any number. `make fuzz` runs it for longer.
func FuzzDecimalScanMatchesText(f *testing.F) {
	for _, s := range []string{"0", "0.00", "19.90", "10000", "-12.50", "1e5", "-1e-5", "123456789012345678901234567890.123456789", "0.0001", "9999.9999"} {
		f.Add(s)
	}
	m := pgtype.NewMap()
	f.Fuzz(func(t *testing.T, s string) {
		in, err := decimal.NewFromString(s)
		if err != nil || in.Exponent() < -200 || in.Exponent() > 200 {
			return
		}
		text := in.StringFixed(max(0, -in.Exponent())) // as PostgreSQL writes it, to its scale
		want := decimal.RequireFromString(text)
		var n pgtype.Numeric
		if err := n.Scan(text); err != nil {
			t.Fatalf("pgtype reads %s: %v", text, err)
		}
		buf, err := m.Encode(pgtype.NumericOID, pgtype.BinaryFormatCode, n, nil)
		if err != nil {
			t.Fatalf("pgtype writes %s: %v", text, err)
		}
		var got decimal.Decimal
		if err := m.Scan(pgtype.NumericOID, pgtype.BinaryFormatCode, buf, db.Decimal{D: &got}); err != nil {
			t.Fatalf("scan %s: %v", text, err)
		}
		if !got.Equal(want) || (got.Exponent() != want.Exponent() && !want.IsZero()) {
			t.Fatalf("%s: scanned %s (exponent %d), want %s (exponent %d)", text, got, got.Exponent(), want, want.Exponent())
		}
	})
}
