package catalogapi_test

import (
	"context"
	"errors"
	"testing"

	catalog "github.com/gocommerce/commerce/modules/catalog/api"
	"github.com/gocommerce/commerce/modules/inventory/adapters/catalogapi"
	"github.com/gocommerce/commerce/modules/inventory/domain"
	"github.com/gocommerce/commerce/modules/inventory/ports"
)

// fakeCatalog is a hand-written catalog/api.Catalog.
type fakeCatalog struct {
	products map[string]catalog.Product
	set      []catalog.InventoryQuantity
	setErr   error
}

func (f *fakeCatalog) GetProduct(_ context.Context, id string) (catalog.Product, error) {
	p, ok := f.products[id]
	if !ok {
		return catalog.Product{}, catalog.ErrProductNotFound
	}
	return p, nil
}

func (f *fakeCatalog) ProductCollections(context.Context, []string) (map[string][]string, error) {
	return map[string][]string{}, nil
}

func (f *fakeCatalog) GetProducts(context.Context, []string) ([]catalog.Product, error) {
	return nil, errors.New("not used")
}

func (f *fakeCatalog) GetVariant(_ context.Context, productID, variantID string) (catalog.Variant, error) {
	p, ok := f.products[productID]
	if !ok {
		return catalog.Variant{}, catalog.ErrProductNotFound
	}
	for _, v := range p.Variants {
		if v.ID == variantID || (variantID == "" && v.IsDefault && len(p.Variants) == 1) {
			return v, nil
		}
	}
	return catalog.Variant{}, catalog.ErrVariantNotFound
}

func (f *fakeCatalog) GetProductVariant(ctx context.Context, productID, variantID string) (catalog.Product, error) {
	v, err := f.GetVariant(ctx, productID, variantID)
	if err != nil {
		return catalog.Product{}, err
	}
	p := f.products[productID]
	p.Variants = []catalog.Variant{v}
	return p, nil
}

func (f *fakeCatalog) FindVariant(_ context.Context, variantID string) (catalog.Product, error) {
	for _, p := range f.products {
		for _, v := range p.Variants {
			if v.ID == variantID {
				p.Variants = []catalog.Variant{v}
				return p, nil
			}
		}
	}
	return catalog.Product{}, catalog.ErrVariantNotFound
}

func (f *fakeCatalog) SetInventoryQuantities(_ context.Context, q []catalog.InventoryQuantity) error {
	f.set = append(f.set, q...)
	return f.setErr
}

func TestAdapter(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := &fakeCatalog{products: map[string]catalog.Product{
		"p1": {ID: "p1", Title: "Mug", Currency: "EUR", LowStockThreshold: 4, InventoryPolicy: "continue",
			Variants: []catalog.Variant{{ID: "v1", ProductID: "p1", Title: "Default", SKU: "MUG", IsDefault: true}}},
		"p2": {ID: "p2", Title: "Shirt", Currency: "USD", InventoryPolicy: "deny",
			Variants: []catalog.Variant{
				{ID: "v2", ProductID: "p2", Title: "S", SKU: "S-S", InventoryPolicy: "deny"},
				{ID: "v3", ProductID: "p2", Title: "M", SKU: "S-M", InventoryPolicy: "continue"},
			}},
	}}
	a := catalogapi.NewAdapter(f)

	v, err := a.GetVariant(ctx, "p1", "")
	want := ports.Variant{ProductID: "p1", ProductName: "Mug", LowStockThreshold: 4, Currency: "EUR", VariantID: "v1",
		Title: "Default", SKU: "MUG", Policy: domain.PolicyContinue, IsDefault: true}
	if err != nil || v != want {
		t.Fatalf("default variant = %+v, %v", v, err)
	}
	if v, err := a.GetVariant(ctx, "p2", "v3"); err != nil || v.VariantID != "v3" || v.Policy != domain.PolicyContinue || v.ProductName != "Shirt" {
		t.Fatalf("explicit variant = %+v, %v", v, err)
	}
	if _, err := a.GetVariant(ctx, "p2", ""); !errors.Is(err, domain.ErrVariantNotFound) {
		t.Fatalf("no default among explicit variants: %v", err)
	}
	if _, err := a.GetVariant(ctx, "p2", "v1"); !errors.Is(err, domain.ErrVariantNotFound) {
		t.Fatalf("another product's variant: %v", err)
	}
	if _, err := a.GetVariant(ctx, "p9", ""); !errors.Is(err, domain.ErrProductNotFound) {
		t.Fatalf("unknown product: %v", err)
	}
	if p, err := a.GetProduct(ctx, "p2"); err != nil || p != (ports.Product{ID: "p2", Name: "Shirt", Currency: "USD"}) {
		t.Fatalf("GetProduct = %+v, %v", p, err)
	}
	if _, err := a.GetProduct(ctx, "p9"); !errors.Is(err, domain.ErrProductNotFound) {
		t.Fatalf("GetProduct unknown: %v", err)
	}
	if err := a.SetInventoryQuantities(ctx, []ports.VariantTotal{{ProductID: "p2", VariantID: "v2", Available: 7}}); err != nil ||
		len(f.set) != 1 || f.set[0] != (catalog.InventoryQuantity{ProductID: "p2", VariantID: "v2", Quantity: 7}) {
		t.Fatalf("SetInventoryQuantities: %v %+v", err, f.set)
	}
	f.setErr = errors.New("db down")
	if err := a.SetInventoryQuantities(ctx, nil); err == nil {
		t.Fatal("error swallowed")
	}
}
