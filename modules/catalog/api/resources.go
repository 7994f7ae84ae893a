package api

import "time"

// ProductResource is a product as the HTTP API shows it, and the data of product events
// (which always carry Variants). Money amounts are decimal strings with the currency's
// minor units. Variants, Images and Collections are present only when included.
type ProductResource struct {
	ID                  string         `json:"id"`
	Title               string         `json:"title"`
	Slug                string         `json:"slug"`
	Description         string         `json:"description"`
	ShortDescription    string         `json:"short_description"`
	ProductType         string         `json:"product_type"`
	Vendor              string         `json:"vendor"`
	Tags                []string       `json:"tags"`
	Status              string         `json:"status"`
	IsFeatured          bool           `json:"is_featured"`
	Price               string         `json:"price"`
	CompareAtPrice      *string        `json:"compare_at_price"`
	CostPrice           *string        `json:"cost_price"`
	Currency            string         `json:"currency"`
	Taxable             bool           `json:"taxable"`
	RequiresShipping    bool           `json:"requires_shipping"`
	Weight              string         `json:"weight"`
	WeightUnit          string         `json:"weight_unit"`
	InventoryQuantity   int            `json:"inventory_quantity"`
	InventoryPolicy     string         `json:"inventory_policy"`
	InventoryManagement *string        `json:"inventory_management"`
	LowStockThreshold   int            `json:"low_stock_threshold"`
	HasVariants         bool           `json:"has_variants"`
	SEOTitle            string         `json:"seo_title"`
	SEODescription      string         `json:"seo_description"`
	MetaFields          map[string]any `json:"meta_fields"`
	CreatedAt           time.Time      `json:"created_at"`
	UpdatedAt           time.Time      `json:"updated_at"`
	PublishedAt         *time.Time     `json:"published_at"`

	Variants    *[]VariantResource    `json:"variants,omitempty"`
	Images      *[]ImageResource      `json:"images,omitempty"`
	Collections *[]CollectionResource `json:"collections,omitempty"`
}

// ProductSummary is a product in the product list.
type ProductSummary struct {
	ID                string     `json:"id"`
	Title             string     `json:"title"`
	Slug              string     `json:"slug"`
	ShortDescription  string     `json:"short_description"`
	ProductType       string     `json:"product_type"`
	Vendor            string     `json:"vendor"`
	Tags              []string   `json:"tags"`
	Status            string     `json:"status"`
	IsFeatured        bool       `json:"is_featured"`
	Price             string     `json:"price"`
	CompareAtPrice    *string    `json:"compare_at_price"`
	Currency          string     `json:"currency"`
	InventoryQuantity int        `json:"inventory_quantity"`
	InventoryPolicy   string     `json:"inventory_policy"`
	LowStockThreshold int        `json:"low_stock_threshold"`
	HasVariants       bool       `json:"has_variants"`
	ImageURL          *string    `json:"image_url"`
	CreatedAt         time.Time  `json:"created_at"`
	UpdatedAt         time.Time  `json:"updated_at"`
	PublishedAt       *time.Time `json:"published_at"`
}

// VariantResource is a variant as the HTTP API shows it, and the data of variant events.
type VariantResource struct {
	ID                string            `json:"id"`
	ProductID         string            `json:"product_id"`
	Title             string            `json:"title"`
	SKU               string            `json:"sku"`
	Barcode           string            `json:"barcode"`
	Price             string            `json:"price"`
	CompareAtPrice    *string           `json:"compare_at_price"`
	CostPrice         *string           `json:"cost_price"`
	InventoryQuantity int               `json:"inventory_quantity"`
	InventoryPolicy   string            `json:"inventory_policy"`
	Weight            string            `json:"weight"`
	WeightUnit        string            `json:"weight_unit"`
	RequiresShipping  bool              `json:"requires_shipping"`
	IsDefault         bool              `json:"is_default"`
	Options           map[string]string `json:"options"`
	CreatedAt         time.Time         `json:"created_at"`
	UpdatedAt         time.Time         `json:"updated_at"`
}

// ImageResource is a product image.
type ImageResource struct {
	ID        string    `json:"id"`
	ProductID string    `json:"product_id"`
	URL       string    `json:"url"`
	AltText   string    `json:"alt_text"`
	Position  int       `json:"position"`
	Width     int       `json:"width"`
	Height    int       `json:"height"`
	FileSize  int64     `json:"file_size"`
	FileType  string    `json:"file_type"`
	CreatedAt time.Time `json:"created_at"`
}

// CollectionRule is one condition of a smart collection.
type CollectionRule struct {
	Column    string `json:"column"`
	Relation  string `json:"relation"`
	Condition string `json:"condition"`
}

// CollectionResource is a collection as the HTTP API shows it, and the data of
// collection.created / collection.updated / collection.deleted.
type CollectionResource struct {
	ID             string           `json:"id"`
	Title          string           `json:"title"`
	Slug           string           `json:"slug"`
	Description    string           `json:"description"`
	CollectionType string           `json:"collection_type"`
	Rules          []CollectionRule `json:"rules"`
	IsActive       bool             `json:"is_active"`
	SEOTitle       string           `json:"seo_title"`
	SEODescription string           `json:"seo_description"`
	CreatedAt      time.Time        `json:"created_at"`
	UpdatedAt      time.Time        `json:"updated_at"`
}

// CollectionProduct is a product's membership of a manual collection, and the data of
// collection.product_added / collection.product_removed.
type CollectionProduct struct {
	CollectionID string    `json:"collection_id"`
	ProductID    string    `json:"product_id"`
	Position     int       `json:"position"`
	CreatedAt    time.Time `json:"created_at"`
}
