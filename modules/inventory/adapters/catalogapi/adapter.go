// Package catalogapi implements inventory's ports.Catalog on top of the catalog
// module's api package (the only part of catalog inventory may import).
package catalogapi

import (
	"context"
	"errors"

	catalog "github.com/gocommerce/commerce/modules/catalog/api"
	"github.com/gocommerce/commerce/modules/inventory/domain"
	"github.com/gocommerce/commerce/modules/inventory/ports"
)

// Adapter translates between inventory's and the catalog's words.
type Adapter struct {
	catalog catalog.Catalog
}

var _ ports.Catalog = (*Adapter)(nil)

// NewAdapter builds the adapter.
func NewAdapter(c catalog.Catalog) *Adapter { return &Adapter{catalog: c} }

// GetVariant returns the product's variant (its default variant when variantID is "")
// with the product facts inventory keeps, in one catalog read.
func (a *Adapter) GetVariant(ctx context.Context, productID, variantID string) (ports.Variant, error) {
	p, err := a.catalog.GetProductVariant(ctx, productID, variantID)
	if err != nil {
		return ports.Variant{}, mapErr(err)
	}
	if len(p.Variants) != 1 {
		return ports.Variant{}, domain.ErrVariantNotFound
	}
	v := p.Variants[0]
	policy := v.InventoryPolicy
	if policy == "" {
		policy = p.InventoryPolicy
	}
	return ports.Variant{
		ProductID: p.ID, ProductName: p.Title, LowStockThreshold: p.LowStockThreshold, Currency: p.Currency,
		VariantID: v.ID, Title: v.Title, SKU: v.SKU, Policy: domain.Policy(policy), IsDefault: v.IsDefault,
	}, nil
}

// GetProduct returns the product facts inventory keeps.
func (a *Adapter) GetProduct(ctx context.Context, productID string) (ports.Product, error) {
	p, err := a.catalog.GetProduct(ctx, productID)
	if err != nil {
		return ports.Product{}, mapErr(err)
	}
	return ports.Product{ID: p.ID, Name: p.Title, LowStockThreshold: p.LowStockThreshold, Currency: p.Currency}, nil
}

// SetInventoryQuantities reports variant totals to the catalog in ctx's transaction.
func (a *Adapter) SetInventoryQuantities(ctx context.Context, totals []ports.VariantTotal) error {
	q := make([]catalog.InventoryQuantity, len(totals))
	for i, t := range totals {
		q[i] = catalog.InventoryQuantity{ProductID: t.ProductID, VariantID: t.VariantID, Quantity: t.Available}
	}
	return mapErr(a.catalog.SetInventoryQuantities(ctx, q))
}

func mapErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, catalog.ErrProductNotFound):
		return domain.ErrProductNotFound
	case errors.Is(err, catalog.ErrVariantNotFound):
		return domain.ErrVariantNotFound
	}
	return err
}
