// Package catalogtest offers other modules an in-memory api.Catalog for their tests
// (it lives under api/ so any module may import it).
package catalogtest

import (
	"context"
	"slices"
	"sync"

	"github.com/gocommerce/commerce/modules/catalog/api"
)

// Fake is an in-memory api.Catalog. Add products with Put; SetInventoryQuantities
// updates variant stock and product totals and records every call.
type Fake struct {
	mu       sync.Mutex
	products map[string]api.Product
	// Sets lists the SetInventoryQuantities calls, in order.
	Sets [][]api.InventoryQuantity
	// Collections maps product ids to collection ids for ProductCollections.
	Collections map[string][]string
}

// ProductCollections returns the configured collection ids of each known product.
func (f *Fake) ProductCollections(_ context.Context, ids []string) (map[string][]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make(map[string][]string, len(ids))
	for _, id := range ids {
		if _, ok := f.products[id]; ok {
			out[id] = slices.Clone(f.Collections[id])
		}
	}
	return out, nil
}

var _ api.Catalog = (*Fake)(nil)

// New returns an empty fake.
func New() *Fake { return &Fake{products: map[string]api.Product{}} }

// Put stores (or replaces) a product.
func (f *Fake) Put(p api.Product) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.products[p.ID] = clone(p)
}

func clone(p api.Product) api.Product {
	p.Variants = slices.Clone(p.Variants)
	return p
}

// GetProduct returns a stored product or api.ErrProductNotFound.
func (f *Fake) GetProduct(_ context.Context, id string) (api.Product, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	p, ok := f.products[id]
	if !ok {
		return api.Product{}, api.ErrProductNotFound
	}
	return clone(p), nil
}

// GetProducts returns the stored products among ids, in the order of ids.
func (f *Fake) GetProducts(_ context.Context, ids []string) ([]api.Product, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := []api.Product{}
	seen := map[string]bool{}
	for _, id := range ids {
		if p, ok := f.products[id]; ok && !seen[id] {
			seen[id] = true
			out = append(out, clone(p))
		}
	}
	return out, nil
}

// GetSaleVariants answers the stored products' variants among ids (GetProducts').
func (f *Fake) GetSaleVariants(ctx context.Context, ids []string) ([]api.SaleVariant, error) {
	ps, err := f.GetProducts(ctx, ids)
	out := []api.SaleVariant{}
	for _, p := range ps {
		for _, v := range p.Variants {
			out = append(out, api.SaleVariantOf(p, v))
		}
	}
	return out, err
}

// GetVariant returns a variant, or the default variant when variantID is "".
func (f *Fake) GetVariant(_ context.Context, productID, variantID string) (api.Variant, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	p, ok := f.products[productID]
	if !ok {
		return api.Variant{}, api.ErrProductNotFound
	}
	for _, v := range p.Variants {
		if (variantID == "" && v.IsDefault) || (variantID != "" && v.ID == variantID) {
			return v, nil
		}
	}
	return api.Variant{}, api.ErrVariantNotFound
}

// GetProductVariant returns the product with only the variant asked for (the default
// variant when variantID is "").
func (f *Fake) GetProductVariant(ctx context.Context, productID, variantID string) (api.Product, error) {
	v, err := f.GetVariant(ctx, productID, variantID)
	if err != nil {
		return api.Product{}, err
	}
	p, err := f.GetProduct(ctx, productID)
	if err != nil {
		return api.Product{}, err
	}
	p.Variants = []api.Variant{v}
	return p, nil
}

// FindVariant returns the product holding the variant, with only that variant, or
// api.ErrVariantNotFound.
func (f *Fake) FindVariant(_ context.Context, variantID string) (api.Product, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, p := range f.products {
		for _, v := range p.Variants {
			if v.ID == variantID {
				p = clone(p)
				p.Variants = []api.Variant{v}
				return p, nil
			}
		}
	}
	return api.Product{}, api.ErrVariantNotFound
}

// SetInventoryQuantities records the call and updates the stored stock.
func (f *Fake) SetInventoryQuantities(_ context.Context, q []api.InventoryQuantity) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.Sets = append(f.Sets, slices.Clone(q))
	for _, x := range q {
		p, ok := f.products[x.ProductID]
		if !ok {
			continue
		}
		total := 0
		for i := range p.Variants {
			if p.Variants[i].ID == x.VariantID {
				p.Variants[i].InventoryQuantity = x.Quantity
			}
			total += p.Variants[i].InventoryQuantity
		}
		p.InventoryQuantity = total
		f.products[p.ID] = p
	}
	return nil
}
