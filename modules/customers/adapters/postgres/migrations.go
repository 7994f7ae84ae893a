// Package postgres stores customers with gorm (PostgreSQL, and SQLite through the same
// code) and embeds the module's migrations.
package postgres

import (
	"embed"

	"github.com/gocommerce/commerce/platform/db"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Migrations returns the customers tables' migrations (versions 2026112220..).
func Migrations() db.MigrationSource { return db.Embedded("customers", migrations) }
