// Package postgres stores the catalog (PostgreSQL, and SQLite through the same code) and
// embeds the module's migrations. The hot reads (a product, a list page, products for
// carts) are plain SQL through db.QueryRow and db.Query (pgx on PostgreSQL outside a
// transaction), scanned explicitly (scan.go); the other statements use gorm.
package postgres

import (
	"embed"

	"github.com/gocommerce/commerce/platform/db"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Migrations returns the catalog tables' migrations (versions 2026112230..39).
func Migrations() db.MigrationSource { return db.Embedded("catalog", migrations) }
