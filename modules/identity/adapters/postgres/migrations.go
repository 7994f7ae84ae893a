// Package postgres stores identity's credentials, staff users and API keys with gorm
// (PostgreSQL, and SQLite through the same code) and embeds the module's migrations.
package postgres

import (
	"embed"

	"github.com/gocommerce/commerce/platform/db"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Migrations returns identity's table migrations (versions 2026112210..).
func Migrations() db.MigrationSource { return db.Embedded("identity", migrations) }
