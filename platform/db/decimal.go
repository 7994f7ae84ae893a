package db

import (
	"fmt"
	"math/big"

	"github.com/jackc/pgx/v5/pgtype"
	"github.com/shopspring/decimal"
)

// Decimal is a scan destination for a numeric column that holds a *decimal.Decimal.
// On the pgx path (DB.QueryRow, DB.Query on PostgreSQL) it takes pgx's binary numeric
// as it is; decimal.Decimal alone is a sql.Scanner, which makes pgx format the number
// as text for decimal to parse back: a tenth of a list page's CPU (docs/performance.md,
// finding 12). Elsewhere (database/sql, SQLite) it scans as decimal.Decimal does.
// NULL is an error, as it is for decimal.Decimal.
type Decimal struct{ D *decimal.Decimal }

// ScanNumeric implements pgtype.NumericScanner.
func (s Decimal) ScanNumeric(v pgtype.Numeric) error {
	d, ok, err := fromNumeric(v)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("db: cannot scan NULL into decimal.Decimal")
	}
	*s.D = d
	return nil
}

// Scan implements sql.Scanner.
func (s Decimal) Scan(src any) error { return s.D.Scan(src) }

// NullDecimal is Decimal for a nullable column held in a *decimal.NullDecimal.
type NullDecimal struct{ D *decimal.NullDecimal }

// ScanNumeric implements pgtype.NumericScanner.
func (s NullDecimal) ScanNumeric(v pgtype.Numeric) error {
	d, ok, err := fromNumeric(v)
	if err != nil {
		return err
	}
	*s.D = decimal.NullDecimal{Decimal: d, Valid: ok}
	return nil
}

// Scan implements sql.Scanner.
func (s NullDecimal) Scan(src any) error { return s.D.Scan(src) }

var bigTen = big.NewInt(10)

// fromNumeric converts pgx's numeric to a decimal as decimal would parse the number's
// text: pgx gives the digits to the value's scale (19.90 is 1990 and exponent -2, as
// the text parses), but writes the trailing zeros of an integer as a positive
// exponent (10000 is 1 and exponent 4, where the text gives 10000 and exponent 0),
// which is undone here. Only a zero may keep another exponent than its text's (pgx
// sends 0.00 as 0): the value is the same.
func fromNumeric(v pgtype.Numeric) (decimal.Decimal, bool, error) {
	if !v.Valid {
		return decimal.Decimal{}, false, nil
	}
	if v.NaN || v.InfinityModifier != pgtype.Finite {
		return decimal.Decimal{}, false, fmt.Errorf("db: cannot scan %s into decimal.Decimal", numericText(v))
	}
	if v.Exp > 0 {
		i := new(big.Int).Exp(bigTen, big.NewInt(int64(v.Exp)), nil)
		return decimal.NewFromBigInt(i.Mul(i, v.Int), 0), true, nil
	}
	return decimal.NewFromBigInt(v.Int, v.Exp), true, nil
}

func numericText(v pgtype.Numeric) string {
	if text, err := v.Value(); err == nil {
		if s, ok := text.(string); ok {
			return s
		}
	}
	return "a special numeric"
}

var (
	_ pgtype.NumericScanner = Decimal{}
	_ pgtype.NumericScanner = NullDecimal{}
)

// registerDecimal lets pgx send a decimal.Decimal or decimal.NullDecimal parameter (or
// a pointer to one) as numeric directly. Without it pgx takes the value as a
// driver.Valuer, whose string it first fails to encode in numeric's binary format
// (building an error), then parses back into a numeric and encodes that: 3.6% of a
// checkout complete's server CPU (decision 0242). A parameter of another type (text,
// say) finds no numeric plan and still takes the Valuer's path.
func registerDecimal(m *pgtype.Map) {
	m.TryWrapEncodePlanFuncs = append([]pgtype.TryWrapEncodePlanFunc{tryWrapDecimal}, m.TryWrapEncodePlanFuncs...)
}

func tryWrapDecimal(value any) (pgtype.WrappedEncodePlanNextSetter, any, bool) {
	n, ok := numericOf(value)
	if !ok {
		return nil, nil, false
	}
	return &decimalEncodePlan{}, n, true
}

// numericOf is a decimal value as pgx's numeric (invalid, so NULL, for a null or nil
// one); false for a value of another type. Pointers are taken here because pgx does
// not dereference a pointer that is a driver.Valuer.
func numericOf(value any) (pgtype.Numeric, bool) {
	switch v := value.(type) {
	case decimal.Decimal:
		return pgtype.Numeric{Int: v.Coefficient(), Exp: v.Exponent(), Valid: true}, true
	case decimal.NullDecimal:
		if !v.Valid {
			return pgtype.Numeric{}, true
		}
		return numericOf(v.Decimal)
	case *decimal.Decimal:
		if v == nil {
			return pgtype.Numeric{}, true
		}
		return numericOf(*v)
	case *decimal.NullDecimal:
		if v == nil {
			return pgtype.Numeric{}, true
		}
		return numericOf(*v)
	}
	return pgtype.Numeric{}, false
}

// decimalEncodePlan encodes a decimal value with numeric's plan for pgtype.Numeric.
type decimalEncodePlan struct{ next pgtype.EncodePlan }

func (p *decimalEncodePlan) SetNext(next pgtype.EncodePlan) { p.next = next }

func (p *decimalEncodePlan) Encode(value any, buf []byte) ([]byte, error) {
	n, _ := numericOf(value)
	return p.next.Encode(n, buf)
}
