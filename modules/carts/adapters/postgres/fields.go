package postgres

import (
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgtype"
	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/db"
)

// field is a column and a pointer to the row field that holds it. The repository
// scans and writes rows through their fields instead of gorm's reflection: the cart
// paths are hot (docs/decisions/0088).
type field struct {
	column string
	ptr    any // *string, **string, *int, *int64, *bool, *decimal.Decimal or *time.Time
}

// columns is the SELECT list of the fields, each qualified with the table alias.
func columns(fs []field, alias string) string {
	return list(fs, func(string) bool { return true }, func(col string) string { return alias + "." + col })
}

// list joins, with commas, each kept field's column as format writes it.
func list(fs []field, keep func(column string) bool, format func(column string) string) string {
	var b strings.Builder
	for _, f := range fs {
		if !keep(f.column) {
			continue
		}
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		b.WriteString(format(f.column))
	}
	return b.String()
}

// pointers are the scan destinations of the fields (decimals through db.Decimal,
// which takes pgx's numeric without a text round trip).
func pointers(fs []field) []any {
	out := make([]any, len(fs))
	for i, f := range fs {
		if p, ok := f.ptr.(*decimal.Decimal); ok {
			out[i] = db.Decimal{D: p}
			continue
		}
		out[i] = f.ptr
	}
	return out
}

// orNull are scan destinations that leave their field alone for NULL: the item
// columns of a cart without items in a LEFT JOIN.
func orNull(fs []field) []any {
	out := make([]any, len(fs))
	for i, f := range fs {
		switch p := f.ptr.(type) {
		case *string:
			out[i] = orNullOf[string]{p}
		case *int:
			out[i] = orNullOf[int]{p}
		case *bool:
			out[i] = orNullOf[bool]{p}
		case *decimal.Decimal:
			out[i] = orNullDecimal{p}
		case *time.Time:
			out[i] = orNullOf[time.Time]{p}
		default: // **string is nullable already
			out[i] = f.ptr
		}
	}
	return out
}

// orNullOf scans a value that may be NULL into *dest (database/sql's conversions).
type orNullOf[T any] struct{ dest *T }

func (n orNullOf[T]) Scan(v any) error {
	var x sql.Null[T]
	if err := x.Scan(v); err != nil {
		return err
	}
	if x.Valid {
		*n.dest = x.V
	}
	return nil
}

// orNullDecimal is orNullOf for a decimal, which also takes pgx's numeric as it is
// (db.Decimal).
type orNullDecimal struct{ dest *decimal.Decimal }

func (n orNullDecimal) ScanNumeric(v pgtype.Numeric) error {
	var x decimal.NullDecimal
	if err := (db.NullDecimal{D: &x}).ScanNumeric(v); err != nil {
		return err
	}
	if x.Valid {
		*n.dest = x.Decimal
	}
	return nil
}

func (n orNullDecimal) Scan(v any) error { return orNullOf[decimal.Decimal](n).Scan(v) }

// value is the field's value as a statement argument.
func (f field) value() any {
	switch p := f.ptr.(type) {
	case *string:
		return *p
	case **string:
		if *p == nil {
			return nil
		}
		return **p
	case *int:
		return *p
	case *int64:
		return *p
	case *bool:
		return *p
	case *decimal.Decimal:
		return *p
	case *time.Time:
		return *p
	}
	panic(fmt.Sprintf("carts: unsupported field type %T", f.ptr))
}

// same reports whether two fields (of the same column) hold the same value.
func same(a, b field) bool {
	switch p := a.ptr.(type) {
	case *decimal.Decimal:
		return p.Equal(*b.ptr.(*decimal.Decimal))
	case *time.Time:
		return p.Equal(*b.ptr.(*time.Time))
	}
	return a.value() == b.value()
}

// changes lists the fields of after that differ from before (same table, same order),
// leaving out the columns never updated.
func changes(before, after []field, keep func(column string) bool) []field {
	var out []field
	for i := range after {
		if keep(after[i].column) && !same(before[i], after[i]) {
			out = append(out, after[i])
		}
	}
	return out
}

// updateSQL is "UPDATE table SET a = ?, b = ?[, extra] WHERE id = ?" with its
// arguments.
func updateSQL(table, id string, set []field, extra ...string) (string, []any) {
	cols := make([]string, 0, len(set)+len(extra))
	args := make([]any, 0, len(set)+1)
	for _, f := range set {
		cols = append(cols, f.column+" = ?")
		args = append(args, f.value())
	}
	return "UPDATE " + table + " SET " + strings.Join(append(cols, extra...), ", ") + " WHERE id = ?", append(args, id)
}
