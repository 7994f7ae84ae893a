// Package postgres stores carts and their items (PostgreSQL, and SQLite through the
// same code) and embeds the module's migrations. Reads and the row-locked writes are
// plain SQL (db.Query, db.QueryRow, db.Exec: pgx on PostgreSQL), scanned through explicit fields
// (fields.go); the add's versioned write is one batched statement (batch.go, decision
// 0089); gorm builds only the rarer statements (create, delete, expiry).
package postgres

import (
	"embed"

	"github.com/gocommerce/commerce/platform/db"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Migrations returns the carts tables' migrations (versions 2026112260 and 2026112280).
func Migrations() db.MigrationSource { return db.Embedded("carts", migrations) }
