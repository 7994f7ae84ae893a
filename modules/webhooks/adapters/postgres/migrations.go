// Package postgres stores webhook endpoints, deliveries and attempts with gorm
// (PostgreSQL, and SQLite through the same code) and embeds the module's migrations.
package postgres

import (
	"embed"

	"github.com/gocommerce/commerce/platform/db"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Migrations returns the webhooks tables' migrations (version 2026112690).
func Migrations() db.MigrationSource { return db.Embedded("webhooks", migrations) }
