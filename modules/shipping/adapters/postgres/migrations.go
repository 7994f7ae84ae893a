// Package postgres stores shipping with gorm (PostgreSQL, and SQLite through the same
// code) and embeds the module's migrations.
package postgres

import (
	"embed"
	"io/fs"

	"github.com/gocommerce/commerce/platform/db"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Migrations returns the shipping tables' migrations (version 2026112573).
func Migrations() db.MigrationSource {
	sub, err := fs.Sub(migrations, "migrations")
	if err != nil {
		panic(err) // the embedded path is fixed at compile time
	}
	return db.MigrationSource{Module: "shipping", FS: sub}
}
