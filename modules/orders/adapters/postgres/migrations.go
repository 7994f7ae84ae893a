// Package postgres stores orders with gorm (PostgreSQL, and SQLite through the same
// code) and embeds the module's migrations.
package postgres

import (
	"embed"

	"github.com/gocommerce/commerce/platform/db"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Migrations returns the orders tables' migrations (versions 2026112270..).
func Migrations() db.MigrationSource { return db.Embedded("orders", migrations) }
