// Package postgres stores the tax records with gorm (PostgreSQL, and SQLite through the
// same code) and embeds the module's migrations, which ship the EU and US rates.
package postgres

import (
	"embed"

	"github.com/gocommerce/commerce/platform/db"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Migrations returns the tax tables' migrations (version 2026112530).
func Migrations() db.MigrationSource { return db.Embedded("tax", migrations) }
