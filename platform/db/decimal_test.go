package db_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgtype"
	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/testdb"
)

// db.Decimal and db.NullDecimal read what decimal.Decimal reads, on both engines, on
// the pgx path (QueryRow outside a transaction) and through database/sql (inside one).
func TestDecimalScan(t *testing.T) {
	testdb.EachOpen(t, func(t *testing.T, e *testdb.Engine) {
		d := e.DB
		ctx := context.Background()
		q, nullQ := "SELECT ?, ?", "SELECT NULL, NULL"
		if d.Dialect() == db.Postgres {
			q, nullQ = "SELECT $1::numeric, $2::numeric(12,2)", "SELECT NULL::numeric, NULL::numeric"
		}
		check := func(t *testing.T, ctx context.Context, text string) {
			var want, got, scaled decimal.Decimal
			var wantScaled decimal.Decimal
			if err := d.QueryRow(ctx, q, []any{text, text}, &want, &wantScaled); err != nil {
				t.Fatal(err)
			}
			if err := d.QueryRow(ctx, q, []any{text, text}, db.Decimal{D: &got}, db.Decimal{D: &scaled}); err != nil {
				t.Fatal(err)
			}
			for _, p := range [][2]decimal.Decimal{{want, got}, {wantScaled, scaled}} {
				if !p[0].Equal(p[1]) || p[0].String() != p[1].String() || p[0].StringFixed(2) != p[1].StringFixed(2) ||
					(!p[0].IsZero() && p[0].Exponent() != p[1].Exponent()) {
					t.Errorf("%s: db.Decimal read %s (exponent %d), decimal.Decimal %s (exponent %d)", text, p[1], p[1].Exponent(), p[0], p[0].Exponent())
				}
			}
			var nd decimal.NullDecimal
			if err := d.QueryRow(ctx, q, []any{text, text}, db.NullDecimal{D: &nd}, db.Decimal{D: &got}); err != nil {
				t.Fatal(err)
			}
			if !nd.Valid || !nd.Decimal.Equal(want) {
				t.Errorf("%s: db.NullDecimal read %v", text, nd)
			}
		}
		values := []string{"0", "0.00", "19.90", "19.99", "10000", "120", "-0.5", "-10000.25", "1234567890.123456789", "0.0001", "99999999.99"}
		for _, text := range values {
			check(t, ctx, text)
		}
		if err := d.InTx(ctx, func(ctx context.Context) error {
			for _, text := range values[:4] {
				check(t, ctx, text)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}

		nd := decimal.NullDecimal{Decimal: decimal.NewFromInt(1), Valid: true}
		var got decimal.Decimal
		if err := d.QueryRow(ctx, nullQ, nil, db.NullDecimal{D: &nd}, new(any)); err != nil || nd.Valid {
			t.Errorf("NULL into db.NullDecimal: %v %v", nd, err)
		}
		if err := d.QueryRow(ctx, nullQ, nil, db.Decimal{D: &got}, new(any)); err == nil {
			t.Error("NULL into db.Decimal: no error")
		}
		if d.Dialect() == db.Postgres {
			for _, special := range []string{"NaN", "Infinity"} {
				if err := d.QueryRow(ctx, "SELECT $1::numeric", []any{special}, db.Decimal{D: &got}); err == nil {
					t.Errorf("%s into db.Decimal: no error", special)
				}
			}
		}
	}, widgets())
}

// pgx takes Decimal and NullDecimal as numeric scanners (its binary numeric as it is),
// not as sql.Scanners, which would format the number as text first.
func TestDecimalIsANumericScannerForPgx(t *testing.T) {
	t.Parallel()
	m := pgtype.NewMap()
	var d decimal.Decimal
	var nd decimal.NullDecimal
	for _, target := range []any{db.Decimal{D: &d}, db.NullDecimal{D: &nd}} {
		plan := fmt.Sprintf("%T", m.PlanScan(pgtype.NumericOID, pgtype.BinaryFormatCode, target))
		if !strings.Contains(plan, "NumericScanner") {
			t.Errorf("%T: pgx plans %s", target, plan)
		}
	}
	// Binary numeric 10000 (one base-10000 digit 1, weight 1) and -12.50 (scale 2).
	for _, c := range []struct {
		src  []byte
		want string
	}{
		{[]byte{0, 1, 0, 1, 0, 0, 0, 0, 0, 1}, "10000"},
		{[]byte{0, 2, 0, 0, 0x40, 0, 0, 2, 0, 12, 0x13, 0x88}, "-12.5"},
	} {
		if err := m.Scan(pgtype.NumericOID, pgtype.BinaryFormatCode, c.src, db.Decimal{D: &d}); err != nil || d.String() != c.want || d.Exponent() > 0 {
			t.Errorf("scan %v: %s (exponent %d) %v, want %s", c.src, d, d.Exponent(), err, c.want)
		}
	}
}

// A decimal.Decimal or decimal.NullDecimal parameter reaches a numeric column as its
// value, scale included, on every path a statement takes: pgx outside a transaction,
// a pipelined transaction's raw statement, and gorm through database/sql.
func TestDecimalParam(t *testing.T) {
	testdb.EachOpen(t, func(t *testing.T, e *testdb.Engine) {
		d := e.DB
		ctx := context.Background()
		q := "SELECT CAST(? AS TEXT)"
		if d.Dialect() == db.Postgres {
			q = "SELECT $1::numeric::text"
		}
		values := []string{"0", "12.50", "-3.1415", "0.0001", "100000000000000000000.0001", "1e3", "-7e-8", "19.90"}
		for _, text := range values {
			v := decimal.RequireFromString(text)
			want := v.String()
			if d.Dialect() == db.Postgres && v.Exponent() < 0 {
				want = v.StringFixed(-v.Exponent()) // numeric keeps the scale
			}
			paths := map[string]func(arg any) (string, error){
				"pgx": func(arg any) (got string, err error) {
					err = d.QueryRow(ctx, q, []any{arg}, &got)
					return got, err
				},
				"transaction": func(arg any) (got string, err error) {
					err = d.InTx(ctx, func(ctx context.Context) error { return d.QueryRow(ctx, q, []any{arg}, &got) })
					return got, err
				},
				"gorm": func(arg any) (got string, err error) {
					err = d.Gorm().WithContext(ctx).Raw(q, arg).Scan(&got).Error
					return got, err
				},
			}
			for name, run := range paths {
				nv := decimal.NullDecimal{Decimal: v, Valid: true}
				for _, arg := range []any{v, &v, nv, &nv} {
					got, err := run(arg)
					if err != nil {
						t.Fatalf("%s %s (%T): %v", name, text, arg, err)
					}
					if d.Dialect() == db.Postgres && got != want {
						t.Errorf("%s %s (%T): stored %s, want %s", name, text, arg, got, want)
					}
					if g, err := decimal.NewFromString(got); err != nil || !g.Equal(v) {
						t.Errorf("%s %s (%T): stored %s", name, text, arg, got)
					}
				}
			}
		}
		for _, arg := range []any{decimal.NullDecimal{}, &decimal.NullDecimal{}, (*decimal.Decimal)(nil), (*decimal.NullDecimal)(nil)} {
			var null *string
			if err := d.QueryRow(ctx, q, []any{arg}, &null); err != nil || null != nil {
				t.Fatalf("%#v: %v, %v", arg, null, err)
			}
		}
	}, widgets())
}
