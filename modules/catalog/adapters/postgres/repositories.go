package postgres

import (
	"github.com/gocommerce/commerce/modules/catalog/ports"
	"github.com/gocommerce/commerce/platform/db"
)

// The repositories (ProductRepository, with its prepared reads, is in
// product_repository.go), each holding the database handle it takes connections from
// (db.Conn); each one's methods are in its own file.
type (
	// CollectionRepository implements ports.CollectionRepository on collections and
	// collection_products.
	CollectionRepository struct{ db *db.DB }
	// ImageRepository implements ports.ImageRepository on product_images.
	ImageRepository struct{ db *db.DB }
	// VariantRepository implements ports.VariantRepository on product_variants.
	VariantRepository struct{ db *db.DB }
)

var (
	_ ports.CollectionRepository = (*CollectionRepository)(nil)
	_ ports.ImageRepository      = (*ImageRepository)(nil)
	_ ports.VariantRepository    = (*VariantRepository)(nil)
)

// NewCollectionRepository builds the repository.
func NewCollectionRepository(d *db.DB) *CollectionRepository { return &CollectionRepository{db: d} }

// NewImageRepository builds the repository.
func NewImageRepository(d *db.DB) *ImageRepository { return &ImageRepository{db: d} }

// NewVariantRepository builds the repository.
func NewVariantRepository(d *db.DB) *VariantRepository { return &VariantRepository{db: d} }
