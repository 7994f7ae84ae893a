// Package postgres stores the statistics (per-order records, daily rollups, the
// catalog's costs and stock, customers and segments) with SQL that runs on PostgreSQL
// and SQLite both, and embeds the module's migrations.
package postgres

import (
	"embed"

	"github.com/gocommerce/commerce/platform/db"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Migrations returns the statistics tables' migrations (version 2026112710).
func Migrations() db.MigrationSource { return db.Embedded("statistics", migrations) }
