// Package postgres stores checkout sessions and Idempotency-Key records with gorm
// (PostgreSQL, and SQLite through the same code) and embeds the module's migrations.
package postgres

import (
	"embed"

	"github.com/gocommerce/commerce/platform/db"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Migrations returns the checkout tables' migrations (version 2026112597).
func Migrations() db.MigrationSource { return db.Embedded("checkout", migrations) }
