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
	return toVariant(p, p.Variants[0]), nil
}

// GetVariants reads the products of the pairs naming their variant at once (the
// catalog's GetProducts); a pair for a default variant, or whose product or variant was
// not found there, is read alone (GetVariant, for its exact answer).
func (a *Adapter) GetVariants(ctx context.Context, refs []ports.VariantRef) ([]ports.Variant, error) {
	productIDs := make([]string, 0, len(refs))
	for _, r := range refs {
		if r.VariantID != "" {
			productIDs = append(productIDs, r.ProductID)
		}
	}
	found := map[string]catalog.Product{}
	if len(productIDs) > 0 {
		ps, err := a.catalog.GetProducts(ctx, productIDs)
		if err != nil {
			return nil, mapErr(err)
		}
		for _, p := range ps {
			found[p.ID] = p
		}
	}
	out := make([]ports.Variant, len(refs))
	for i, r := range refs {
		if v, ok := variantOf(found[r.ProductID], r.VariantID); ok {
			out[i] = v
			continue
		}
		v, err := a.GetVariant(ctx, r.ProductID, r.VariantID)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// variantOf returns the product's variant variantID (not ""), if it has it.
func variantOf(p catalog.Product, variantID string) (ports.Variant, bool) {
	if variantID == "" {
		return ports.Variant{}, false
	}
	for _, v := range p.Variants {
		if v.ID == variantID {
			return toVariant(p, v), true
		}
	}
	return ports.Variant{}, false
}

func toVariant(p catalog.Product, v catalog.Variant) ports.Variant {
	policy := v.InventoryPolicy
	if policy == "" {
		policy = p.InventoryPolicy
	}
	return ports.Variant{
		ProductID: p.ID, ProductName: p.Title, LowStockThreshold: p.LowStockThreshold, Currency: p.Currency,
		VariantID: v.ID, Title: v.Title, SKU: v.SKU, Policy: domain.Policy(policy), IsDefault: v.IsDefault,
	}
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
