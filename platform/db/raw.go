package db

import (
	"context"
	"strconv"
	"strings"

	"gorm.io/gorm"
)

// Querier is where ctx's statements run without gorm: the transaction ctx carries
// (*sql.Tx), or the pool (*sql.DB). Hot reads use it to skip gorm's statement building,
// callbacks and reflection (docs/performance.md, finding 6); queries sent through it
// must use the dialect's bind parameters (Rebind).
func (d *DB) Querier(ctx context.Context) gorm.ConnPool {
	if InTransaction(ctx) {
		return d.Conn(ctx).Statement.ConnPool
	}
	return d.g.Statement.ConnPool
}

// Rebind rewrites the ? parameters of query as $1, $2 ... on PostgreSQL (SQLite takes ?
// as written). The query must have no ? inside literals or identifiers.
func (d *DB) Rebind(query string) string {
	if d.dialect != Postgres {
		return query
	}
	var b strings.Builder
	b.Grow(len(query) + 8)
	n := 0
	for _, r := range query {
		if r != '?' {
			b.WriteRune(r)
			continue
		}
		n++
		b.WriteByte('$')
		b.WriteString(strconv.Itoa(n))
	}
	return b.String()
}
