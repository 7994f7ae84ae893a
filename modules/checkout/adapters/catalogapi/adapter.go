// Package catalogapi implements checkout's ports.Catalog on the catalog module's api.
package catalogapi

import (
	"context"

	catalog "github.com/gocommerce/commerce/modules/catalog/api"
	"github.com/gocommerce/commerce/modules/checkout/ports"
)

// Adapter is ports.Catalog over catalog.Catalog.
type Adapter struct{ catalog catalog.Catalog }

var _ ports.Catalog = (*Adapter)(nil)

// NewAdapter builds the adapter.
func NewAdapter(c catalog.Catalog) *Adapter { return &Adapter{catalog: c} }

// Variants reads the products at once (the catalog's GetProducts) and answers their
// variants by id.
func (a *Adapter) Variants(ctx context.Context, productIDs []string) (map[string]ports.VariantFacts, error) {
	ps, err := a.catalog.GetProducts(ctx, productIDs)
	if err != nil {
		return nil, err
	}
	out := map[string]ports.VariantFacts{}
	for _, p := range ps {
		for _, v := range p.Variants {
			out[v.ID] = Facts(p, v)
		}
	}
	return out, nil
}

// Facts is a product's variant as checkout passes it on.
func Facts(p catalog.Product, v catalog.Variant) ports.VariantFacts {
	policy := v.InventoryPolicy
	if policy == "" {
		policy = p.InventoryPolicy
	}
	return ports.VariantFacts{
		ProductID: p.ID, VariantID: v.ID, ProductTitle: p.Title, Title: v.Title, SKU: v.SKU, IsDefault: v.IsDefault,
		Currency: p.Currency, Price: v.Price, Weight: v.Weight, WeightUnit: v.WeightUnit, RequiresShipping: v.RequiresShipping,
		Taxable: p.Taxable, Tracked: p.InventoryManagement != "", Policy: policy, LowStockThreshold: p.LowStockThreshold,
	}
}
