package app

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/catalog/domain"
)

// SeedCommand creates many products quickly (demo data, benchmarks, the search plan).
type SeedCommand struct {
	// Count is the number of products.
	Count int
	// VariantsPerProduct is the number of explicit variants per product (sizes); 0
	// keeps only the default variant.
	VariantsPerProduct int
	// Currency defaults to USD.
	Currency string
	// TitlePrefix starts every title (optional).
	TitlePrefix string
	// Quantity is each variant's stock (default: varies from 0 to 49).
	Quantity *int
}

// seedBatch is the number of products inserted per statement batch.
const seedBatch = 500

var (
	seedAdjectives = []string{"Classic", "Vintage", "Modern", "Rustic", "Organic", "Premium", "Everyday", "Lightweight", "Cozy", "Sleek", "Handmade", "Urban", "Coastal", "Alpine", "Nordic", "Bold", "Minimal"}
	seedMaterials  = []string{"Cotton", "Linen", "Wool", "Leather", "Bamboo", "Ceramic", "Steel", "Oak", "Walnut", "Denim", "Silk", "Canvas", "Glass", "Copper", "Cork"}
	seedNouns      = []string{"Shirt", "Mug", "Backpack", "Lamp", "Notebook", "Scarf", "Jacket", "Bottle", "Chair", "Blanket", "Wallet", "Candle", "Planter", "Watch", "Sneakers", "Hat", "Bowl", "Towel", "Desk", "Pillow"}
	seedVendors    = []string{"Acme", "Northwind", "Globex", "Initech", "Umbrella", "Stark Goods", "Wayne Supply"}
	seedTags       = []string{"new", "sale", "bestseller", "eco", "gift", "limited", "summer", "winter", "home", "outdoor"}
	seedSizes      = []string{"XS", "S", "M", "L", "XL", "XXL", "3XL", "4XL"}
)

// SeedProducts inserts cmd.Count active products with varied titles, vendors, tags,
// prices and stock, each with its default variant or cmd.VariantsPerProduct explicit
// variants, in batches of 500 (one transaction per batch). It writes no events: seeded
// stock is what the rows say. It returns the product ids.
func (s *Service) SeedProducts(ctx context.Context, cmd SeedCommand) ([]string, error) {
	currency := cmd.Currency
	if currency == "" {
		currency = "USD"
	}
	currency, err := domain.NormalizeCurrency(currency)
	if err != nil {
		return nil, err
	}
	if cmd.VariantsPerProduct > len(seedSizes) {
		return nil, fmt.Errorf("seed: at most %d variants per product", len(seedSizes))
	}
	out := make([]string, 0, cmd.Count)
	for start := 0; start < cmd.Count; start += seedBatch {
		end := min(start+seedBatch, cmd.Count)
		var (
			ps []*domain.Product
			vs []*domain.Variant
		)
		now := s.clock.Now()
		for i := start; i < end; i++ {
			p, pvs := s.seedProduct(i, cmd, currency, now)
			ps = append(ps, p)
			vs = append(vs, pvs...)
			out = append(out, p.ID)
		}
		if err := s.writeTx(ctx, func(ctx context.Context) error { return s.products.Seed(ctx, ps, vs) }); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (s *Service) seedProduct(i int, cmd SeedCommand, currency string, now time.Time) (*domain.Product, []*domain.Variant) {
	adj := seedAdjectives[i%len(seedAdjectives)]
	mat := seedMaterials[(i/len(seedAdjectives))%len(seedMaterials)]
	noun := seedNouns[(i/7)%len(seedNouns)]
	title := strings.TrimSpace(fmt.Sprintf("%s %s %s %s %d", cmd.TitlePrefix, adj, mat, noun, i+1))
	id := s.newID()
	price := decimal.NewFromInt(int64(500 + (i*3719)%19500)).Shift(-2).Round(domain.MinorUnits(currency))
	qty := (i * 7) % 50
	if cmd.Quantity != nil {
		qty = *cmd.Quantity
	}
	tags := []string{seedTags[i%len(seedTags)], seedTags[(i/3+4)%len(seedTags)]}
	if tags[0] == tags[1] {
		tags = tags[:1]
	}
	types := []string{domain.TypePhysical, domain.TypePhysical, domain.TypePhysical, domain.TypeDigital, domain.TypeService}
	ptype := types[i%len(types)]
	published := now
	p := &domain.Product{
		ID: id, Title: title, Slug: domain.Slugify(title, "product") + "-" + id[len(id)-12:],
		Description:      fmt.Sprintf("<p>A %s %s %s made of %s by %s. Tagged %s.</p>", strings.ToLower(adj), strings.ToLower(mat), strings.ToLower(noun), strings.ToLower(mat), seedVendors[i%len(seedVendors)], strings.Join(tags, ", ")),
		ShortDescription: fmt.Sprintf("%s %s %s", adj, mat, strings.ToLower(noun)),
		ProductType:      ptype, Vendor: seedVendors[i%len(seedVendors)], Tags: tags, Status: domain.StatusActive,
		IsFeatured: i%10 == 0, Currency: currency, Taxable: true, Shared: domain.Shared{Price: price, RequiresShipping: ptype == domain.TypePhysical,
			Weight: decimal.NewFromInt(int64(100 + i%900)).Shift(-3), WeightUnit: domain.DefaultWeightUnit, InventoryPolicy: domain.PolicyDeny},
		InventoryManagement: domain.InventoryManagementCommerce,
		LowStockThreshold:   domain.DefaultLowStockThreshold, MetaFields: map[string]any{}, CreatedAt: now, UpdatedAt: now,
		PublishedAt: &published,
	}
	if cmd.VariantsPerProduct == 0 {
		p.InventoryQuantity = qty
		return p, []*domain.Variant{domain.NewDefaultVariant(s.newID(), p, "", "", now)}
	}
	p.HasVariants = true
	vs := make([]*domain.Variant, 0, cmd.VariantsPerProduct)
	for k := 0; k < cmd.VariantsPerProduct; k++ {
		v := domain.NewDefaultVariant(s.newID(), p, "", "", now)
		v.IsDefault = false
		v.Title = seedSizes[k]
		v.Options = map[string]string{"size": seedSizes[k]}
		v.InventoryQuantity = qty
		v.SKU = fmt.Sprintf("SEED-%s-%s", strings.ToUpper(id[len(id)-12:]), seedSizes[k])
		p.InventoryQuantity += qty
		vs = append(vs, v)
	}
	return p, vs
}
