// Package limits holds the input limits every module shares (docs/decisions/0094):
// the bounds that keep a request's values inside what both database engines store, so
// that bad input is a 400 naming the field and never reaches SQL.
package limits

const (
	// MaxInt is the largest magnitude of a number in a JSON body of the API: integer
	// columns are 32-bit (PostgreSQL integer), so anything beyond is refused at the boundary.
	MaxInt = 1<<31 - 1
	// MinInt is the smallest number a JSON body of the API may carry.
	MinInt = -1 << 31

	// MaxStock bounds a stock quantity: a variant's level at a location, its total over
	// locations and a product's total over its variants, in the catalog and in inventory
	// alike; and any single change of it (an adjustment, a receipt, a transfer).
	MaxStock = 1_000_000_000

	// MaxCount bounds other counters a client sets (coupon usage limits, thresholds).
	MaxCount = 1_000_000_000

	// MaxPage bounds the page query parameter (so the row offset stays far inside
	// 32-bit integers on every engine).
	MaxPage = 1_000_000

	// MaxQueryValue bounds one query-string value or path parameter, in bytes.
	MaxQueryValue = 4096

	// MaxSearchText bounds a free-text search term (q, query), in characters: terms reach
	// LIKE patterns and full-text queries, which the engines bound themselves.
	MaxSearchText = 256
)
