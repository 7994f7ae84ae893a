package db

import (
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// The gorm statement shapes every repository repeats, each wrapping the driver's error
// as "<what>: <err>" (what names the table and the operation, e.g. "coupons: select").
// The statement is the caller's: these only run it and read its outcome.

// Insert creates row (a pointer to a gorm model). A unique violation answers dup when
// dup is not nil.
func Insert(conn *gorm.DB, row any, dup error, what string) error {
	if err := conn.Create(row).Error; err != nil {
		if dup != nil && IsDuplicate(err) {
			return dup
		}
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// InsertNew creates row with ON CONFLICT DO NOTHING (both engines), so a duplicate
// neither stores anything nor aborts a PostgreSQL transaction; it reports whether the
// row was stored.
func InsertNew(conn *gorm.DB, row any, what string) (bool, error) {
	n, err := Affected(conn.Clauses(clause.OnConflict{DoNothing: true}).Create(row), what)
	return n == 1, err
}

// First reads the first row q selects (LIMIT 1, q's order); none is notFound.
func First[R any](q *gorm.DB, notFound error, what string) (R, error) {
	var rows []R
	if err := q.Limit(1).Find(&rows).Error; err != nil {
		var zero R
		return zero, fmt.Errorf("%s: %w", what, err)
	}
	if len(rows) == 0 {
		var zero R
		return zero, notFound
	}
	return rows[0], nil
}

// Find reads every row q selects.
func Find[R any](q *gorm.DB, what string) ([]R, error) {
	var rows []R
	if err := q.Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return rows, nil
}

// Page counts the rows q selects (q a gorm.Session, as Model(...).Where(...) then
// Session gives) and reads the page at offset, at most limit rows in order. Without
// rows it skips the read.
func Page[R any](q *gorm.DB, order string, offset, limit int, countWhat, listWhat string) ([]R, int64, error) {
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, fmt.Errorf("%s: %w", countWhat, err)
	}
	if total == 0 {
		return nil, 0, nil
	}
	rows, err := Find[R](q.Order(order).Offset(offset).Limit(limit), listWhat)
	if err != nil {
		return nil, 0, err
	}
	return rows, total, nil
}

// Done is res's error (a statement gorm has run), wrapped.
func Done(res *gorm.DB, what string) error {
	if res.Error != nil {
		return fmt.Errorf("%s: %w", what, res.Error)
	}
	return nil
}

// Affected is the number of rows res (an update or delete gorm has run) changed.
func Affected(res *gorm.DB, what string) (int64, error) {
	if res.Error != nil {
		return 0, fmt.Errorf("%s: %w", what, res.Error)
	}
	return res.RowsAffected, nil
}

// One is Done, and notFound when res changed no row.
func One(res *gorm.DB, notFound error, what string) error {
	n, err := Affected(res, what)
	if err == nil && n == 0 {
		return notFound
	}
	return err
}

// Map converts rows one by one.
func Map[R, T any](rows []R, conv func(R) T) []T {
	out := make([]T, len(rows))
	for i, row := range rows {
		out[i] = conv(row)
	}
	return out
}

// MapErr converts rows one by one, stopping at the first error.
func MapErr[R, T any](rows []R, conv func(R) (T, error)) ([]T, error) {
	out := make([]T, len(rows))
	for i, row := range rows {
		t, err := conv(row)
		if err != nil {
			return nil, err
		}
		out[i] = t
	}
	return out, nil
}

// FirstAs is First, the row converted by conv.
func FirstAs[R, T any](q *gorm.DB, conv func(R) T, notFound error, what string) (T, error) {
	row, err := First[R](q, notFound, what)
	if err != nil {
		var zero T
		return zero, err
	}
	return conv(row), nil
}

// FindAs is Find, the rows converted by conv.
func FindAs[R, T any](q *gorm.DB, conv func(R) T, what string) ([]T, error) {
	rows, err := Find[R](q, what)
	if err != nil {
		return nil, err
	}
	return Map(rows, conv), nil
}

// Between narrows q to the rows whose column is at or after from and before to; a nil
// bound does not narrow.
func Between(q *gorm.DB, column string, from, to *time.Time) *gorm.DB {
	if from != nil {
		q = q.Where(column+" >= ?", from.UTC())
	}
	if to != nil {
		q = q.Where(column+" < ?", to.UTC())
	}
	return q
}

// Order is the ORDER BY of a sorted list (Page's order): column, then tie so that rows
// with the same value keep one order, both descending when desc.
func Order(column, tie string, desc bool) string {
	dir := " ASC"
	if desc {
		dir = " DESC"
	}
	return column + dir + ", " + tie + dir
}
