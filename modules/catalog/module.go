// Package catalog owns products, variants, images and collections. It is the module's
// composition root: ProviderSet wires the repositories, the image storage, the orders
// check, the service (which implements api.Catalog) and the HTTP handler.
package catalog

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/google/wire"

	cataloghttp "github.com/gocommerce/commerce/modules/catalog/adapters/http"
	"github.com/gocommerce/commerce/modules/catalog/adapters/localdisk"
	"github.com/gocommerce/commerce/modules/catalog/adapters/ordersapi"
	catalogpg "github.com/gocommerce/commerce/modules/catalog/adapters/postgres"
	"github.com/gocommerce/commerce/modules/catalog/adapters/s3"
	catalogapi "github.com/gocommerce/commerce/modules/catalog/api"
	"github.com/gocommerce/commerce/modules/catalog/app"
	"github.com/gocommerce/commerce/modules/catalog/ports"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/modkit"
)

// Module is the catalog module: its name, routes and migrations.
type Module struct{ modkit.Parts }

// NewModule builds the module around its HTTP handler.
func NewModule(h *cataloghttp.Handler) *Module {
	return &Module{modkit.NewParts(modkit.Spec{Name: "catalog", Routes: h, OpenAPI: cataloghttp.OpenAPI(),
		Migrations: Migrations()})}
}

// Migrations returns the module's migrations without building the module (tests, tools).
func Migrations() db.MigrationSource { return catalogpg.Migrations() }

// NewStores builds the module's repositories on the database.
func NewStores(d *db.DB) app.Stores {
	return app.Stores{Products: catalogpg.NewProductRepository(d), Variants: catalogpg.NewVariantRepository(d),
		Images: catalogpg.NewImageRepository(d), Collections: catalogpg.NewCollectionRepository(d)}
}

// ProviderSet wires the module. Inputs: *config.Config, *zap.Logger, *db.DB,
// tx.Manager, event.Publisher, clock.Clock and orders/api.Queries (orders.QuerySet,
// which depends on no other module, so the graph stays acyclic). Outputs: *Module,
// *app.Service, api.Catalog (the service) and ports.Orders (adapters/ordersapi).
var ProviderSet = wire.NewSet(
	NewSettings,
	NewHTTPSettings,
	NewImageStorage,
	NewStores,
	ordersapi.NewAdapter, wire.Bind(new(ports.Orders), new(*ordersapi.Adapter)),
	app.NewService, wire.Bind(new(catalogapi.Catalog), new(*app.Service)),
	cataloghttp.NewHandler,
	NewModule,
)

// NewSettings takes the catalog's slice of the configuration.
func NewSettings(cfg *config.Config) app.Settings { return app.SettingsFrom(cfg) }

// UploadsDir is where the local image storage keeps files: uploads.dir, or
// data_dir/uploads.
func UploadsDir(cfg *config.Config) string {
	if cfg.Uploads.Dir != "" {
		return cfg.Uploads.Dir
	}
	return filepath.Join(cfg.DataDir, "uploads")
}

// uploadsURL is the URL prefix of stored images: uploads.public_url, prefixed with
// http.public_url when it is a path and the service's public URL is known.
func uploadsURL(cfg *config.Config) string {
	u := strings.TrimRight(cfg.Uploads.PublicURL, "/")
	if strings.HasPrefix(u, "/") && cfg.HTTP.PublicURL != "" {
		return strings.TrimRight(cfg.HTTP.PublicURL, "/") + u
	}
	return u
}

// NewHTTPSettings configures the handler: the upload limit, and the local storage
// directory served under uploads.public_url when that is a path (e.g. /uploads).
func NewHTTPSettings(cfg *config.Config) cataloghttp.Settings {
	s := cataloghttp.Settings{MaxImageBytes: cfg.Uploads.MaxSizeBytes}
	if driver(cfg) == "local" && strings.HasPrefix(cfg.Uploads.PublicURL, "/") {
		s.UploadsPath = strings.TrimRight(cfg.Uploads.PublicURL, "/")
		s.UploadsDir = UploadsDir(cfg)
	}
	return s
}

func driver(cfg *config.Config) string {
	if cfg.Uploads.Driver == "" {
		return "local"
	}
	return cfg.Uploads.Driver
}

// NewImageStorage builds the image storage named by uploads.driver: "local" (default)
// writes under UploadsDir; "s3" stores in the bucket named by uploads.s3.*.
func NewImageStorage(cfg *config.Config) (ports.ImageStorage, error) {
	switch driver(cfg) {
	case "local":
		return localdisk.New(UploadsDir(cfg), uploadsURL(cfg))
	case "s3":
		s := cfg.Uploads.S3
		return s3.New(s3.Config{Endpoint: s.Endpoint, Bucket: s.Bucket, Region: s.Region, AccessKeyID: s.AccessKeyID,
			SecretAccessKey: s.SecretAccessKey, PublicURL: s.PublicURL, VirtualHosted: s.VirtualHosted})
	default:
		return nil, fmt.Errorf("config: uploads.driver: must be local or s3, not %q", cfg.Uploads.Driver)
	}
}
