// Package catalogapi implements the orders module's ports.Catalog on top of the
// catalog module's api.
package catalogapi

import (
	"context"
	"errors"

	catalog "github.com/gocommerce/commerce/modules/catalog/api"
	"github.com/gocommerce/commerce/modules/orders/domain"
	"github.com/gocommerce/commerce/modules/orders/ports"
)

// Adapter is ports.Catalog over catalog/api.Catalog.
type Adapter struct {
	catalog catalog.Catalog
}

var _ ports.Catalog = (*Adapter)(nil)

// NewAdapter builds the adapter.
func NewAdapter(c catalog.Catalog) *Adapter { return &Adapter{catalog: c} }

// Variant returns the product's variant (its default variant when variantID is ""), or,
// when productID is "", the variant with that id and its product (the catalog's
// FindVariant).
func (a *Adapter) Variant(ctx context.Context, productID, variantID string) (ports.CatalogVariant, error) {
	if productID == "" {
		p, err := a.catalog.FindVariant(ctx, variantID)
		if err != nil {
			return ports.CatalogVariant{}, translate(err)
		}
		if len(p.Variants) != 1 {
			return ports.CatalogVariant{}, domain.ErrVariantNotFound
		}
		return toVariant(p, &p.Variants[0]), nil
	}
	p, err := a.catalog.GetProduct(ctx, productID)
	if err != nil {
		return ports.CatalogVariant{}, translate(err)
	}
	return pick(p, variantID)
}

// Variants reads every product the refs name at once; a ref without a product, or
// whose product was not found, is looked up alone (for its exact error).
func (a *Adapter) Variants(ctx context.Context, refs []ports.VariantRef) ([]ports.CatalogVariant, []error) {
	productIDs := make([]string, 0, len(refs))
	for _, r := range refs {
		if r.ProductID != "" {
			productIDs = append(productIDs, r.ProductID)
		}
	}
	found := map[string]catalog.Product{}
	if len(productIDs) > 0 {
		ps, err := a.catalog.GetProducts(ctx, productIDs)
		if err != nil {
			errs := make([]error, len(refs))
			for i := range errs {
				errs[i] = err
			}
			return make([]ports.CatalogVariant, len(refs)), errs
		}
		for _, p := range ps {
			found[p.ID] = p
		}
	}
	vs, errs := make([]ports.CatalogVariant, len(refs)), []error(nil)
	for i, r := range refs {
		var err error
		if p, ok := found[r.ProductID]; ok {
			vs[i], err = pick(p, r.VariantID)
		} else {
			vs[i], err = a.Variant(ctx, r.ProductID, r.VariantID)
		}
		if err != nil {
			if errs == nil {
				errs = make([]error, len(refs))
			}
			errs[i] = err
		}
	}
	return vs, errs
}

// pick returns the product's variant (its default variant when variantID is "").
func pick(p catalog.Product, variantID string) (ports.CatalogVariant, error) {
	var v *catalog.Variant
	for i := range p.Variants {
		x := &p.Variants[i]
		if (variantID == "" && x.IsDefault) || (variantID != "" && x.ID == variantID) {
			v = x
			break
		}
	}
	if v == nil {
		if variantID == "" {
			return ports.CatalogVariant{}, domain.ErrVariantNotFound.WithMessage("variant_id is required: the product has variants")
		}
		return ports.CatalogVariant{}, domain.ErrVariantNotFound
	}
	return toVariant(p, v), nil
}

func toVariant(p catalog.Product, v *catalog.Variant) ports.CatalogVariant {
	out := ports.CatalogVariant{
		ProductID: p.ID, VariantID: v.ID, ProductTitle: p.Title, SKU: v.SKU, Price: v.Price, Currency: p.Currency,
		Weight: v.Weight, WeightUnit: v.WeightUnit, RequiresShipping: v.RequiresShipping, Taxable: p.Taxable,
		Tracked: p.InventoryManagement != "",
	}
	if !v.IsDefault {
		out.VariantTitle = v.Title
	}
	return out
}

func translate(err error) error {
	switch {
	case errors.Is(err, catalog.ErrProductNotFound):
		return domain.ErrProductNotFound
	case errors.Is(err, catalog.ErrVariantNotFound):
		return domain.ErrVariantNotFound
	}
	return err
}
