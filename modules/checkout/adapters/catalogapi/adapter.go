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

// Variants reads the products' variants at once (the catalog's narrow
// GetSaleVariants) and answers them by id.
func (a *Adapter) Variants(ctx context.Context, productIDs []string) (map[string]ports.VariantFacts, error) {
	vs, err := a.catalog.GetSaleVariants(ctx, productIDs)
	if err != nil {
		return nil, err
	}
	out := make(map[string]ports.VariantFacts, len(vs))
	for _, v := range vs {
		out[v.ID] = Facts(v)
	}
	return out, nil
}

// Facts is a variant as checkout passes it on.
func Facts(v catalog.SaleVariant) ports.VariantFacts {
	return ports.VariantFacts{
		ProductID: v.ProductID, VariantID: v.ID, ProductTitle: v.ProductTitle, Title: v.Title, SKU: v.SKU, IsDefault: v.IsDefault,
		Currency: v.Currency, Price: v.Price, Weight: v.Weight, WeightUnit: v.WeightUnit, RequiresShipping: v.RequiresShipping,
		Taxable: v.Taxable, Tracked: v.InventoryManagement != "", Policy: v.InventoryPolicy, LowStockThreshold: v.LowStockThreshold,
	}
}
