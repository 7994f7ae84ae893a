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

// registerDecimal lets pgx send a decimal.Decimal (and decimal.NullDecimal) parameter
// as numeric directly. Without it pgx takes the value as a driver.Valuer, whose string
// it first fails to encode in numeric's binary format (building an error), then parses
// back into a numeric and encodes that: about 4% of a checkout complete's server CPU
// (docs/performance.md, session 25). A parameter of another type (text, say) still
// takes the Valuer's path.
func registerDecimal(m *pgtype.Map) {
	m.TryWrapEncodePlanFuncs = append([]pgtype.TryWrapEncodePlanFunc{tryWrapDecimal}, m.TryWrapEncodePlanFuncs...)
}

func tryWrapDecimal(value any) (pgtype.WrappedEncodePlanNextSetter, any, bool) {
	switch v := value.(type) {
	case decimal.Decimal:
		return &decimalEncodePlan{}, toNumeric(v), true
	case decimal.NullDecimal:
		return &nullDecimalEncodePlan{}, toNullNumeric(v), true
	case *decimal.Decimal: // pgx does not dereference a pointer that is a driver.Valuer
		return &decimalPtrEncodePlan{}, pgtype.Numeric{}, true
	case *decimal.NullDecimal:
		return &nullDecimalPtrEncodePlan{}, pgtype.Numeric{}, true
	}
	return nil, nil, false
}

func toNumeric(d decimal.Decimal) pgtype.Numeric {
	return pgtype.Numeric{Int: d.Coefficient(), Exp: d.Exponent(), Valid: true}
}

func toNullNumeric(d decimal.NullDecimal) pgtype.Numeric {
	if !d.Valid {
		return pgtype.Numeric{}
	}
	return toNumeric(d.Decimal)
}

type decimalEncodePlan struct{ next pgtype.EncodePlan }

func (p *decimalEncodePlan) SetNext(next pgtype.EncodePlan) { p.next = next }

func (p *decimalEncodePlan) Encode(value any, buf []byte) ([]byte, error) {
	return p.next.Encode(toNumeric(value.(decimal.Decimal)), buf)
}

type nullDecimalEncodePlan struct{ next pgtype.EncodePlan }

func (p *nullDecimalEncodePlan) SetNext(next pgtype.EncodePlan) { p.next = next }

func (p *nullDecimalEncodePlan) Encode(value any, buf []byte) ([]byte, error) {
	return p.next.Encode(toNullNumeric(value.(decimal.NullDecimal)), buf)
}

type decimalPtrEncodePlan struct{ next pgtype.EncodePlan }

func (p *decimalPtrEncodePlan) SetNext(next pgtype.EncodePlan) { p.next = next }

func (p *decimalPtrEncodePlan) Encode(value any, buf []byte) ([]byte, error) {
	if d := value.(*decimal.Decimal); d != nil {
		return p.next.Encode(toNumeric(*d), buf)
	}
	return p.next.Encode(pgtype.Numeric{}, buf)
}

type nullDecimalPtrEncodePlan struct{ next pgtype.EncodePlan }

func (p *nullDecimalPtrEncodePlan) SetNext(next pgtype.EncodePlan) { p.next = next }

func (p *nullDecimalPtrEncodePlan) Encode(value any, buf []byte) ([]byte, error) {
	if d := value.(*decimal.NullDecimal); d != nil {
		return p.next.Encode(toNullNumeric(*d), buf)
	}
	return p.next.Encode(pgtype.Numeric{}, buf)
}
