// Package postgres stores notifications with gorm (PostgreSQL, and SQLite through the
// same code) and embeds the module's migrations (the tables, then the built-in
// templates).
package postgres

import (
	"embed"

	"github.com/gocommerce/commerce/platform/db"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Migrations returns the notifications tables' migrations (versions 2026112590-91).
func Migrations() db.MigrationSource { return db.Embedded("notifications", migrations) }
