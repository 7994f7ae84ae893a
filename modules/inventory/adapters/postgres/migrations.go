// Package postgres stores inventory with gorm (PostgreSQL, and SQLite through the same
// code) and embeds the module's migrations.
package postgres

import (
	"embed"

	"github.com/gocommerce/commerce/platform/db"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Migrations returns the inventory tables' migrations (versions 2026112240..49).
func Migrations() db.MigrationSource { return db.Embedded("inventory", migrations) }
