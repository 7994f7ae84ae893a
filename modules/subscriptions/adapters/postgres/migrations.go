// Package postgres stores subscriptions with gorm (PostgreSQL, and SQLite through the
// same code) and embeds the module's migrations.
package postgres

import (
	"embed"

	"github.com/gocommerce/commerce/platform/db"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Migrations returns the subscription tables' migrations (version 2026112620).
func Migrations() db.MigrationSource { return db.Embedded("subscriptions", migrations) }
