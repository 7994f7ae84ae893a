package catalogapi_test

import (
	"context"
	"errors"
	"testing"

	"github.com/shopspring/decimal"

	catalog "github.com/gocommerce/commerce/modules/catalog/api"

	"github.com/gocommerce/commerce/modules/carts/adapters/catalogapi"
	"github.com/gocommerce/commerce/modules/carts/domain"
)

// fakeCatalog is catalog's api.Catalog over a fixed product list.
type fakeCatalog struct {
	catalog.Catalog
	products map[string]catalog.Product
	explicit map[string]bool // products with explicit variants
	cols     map[string][]string
}

func (f fakeCatalog) ProductCollections(_ context.Context, ids []string) (map[string][]string, error) {
	out := map[string][]string{}
	for _, id := range ids {
		if c, ok := f.cols[id]; ok {
			out[id] = c
		}
	}
	return out, nil
}

func (f fakeCatalog) GetProduct(_ context.Context, id string) (catalog.Product, error) {
	p, ok := f.products[id]
	if !ok {
		return catalog.Product{}, catalog.ErrProductNotFound
	}
	return p, nil
}

// FindVariant is the product holding the variant, with only that variant.
func (f fakeCatalog) FindVariant(_ context.Context, vid string) (catalog.Product, error) {
	for _, p := range f.products {
		for _, v := range p.Variants {
			if v.ID == vid {
				p.Variants = []catalog.Variant{v}
				return p, nil
			}
		}
	}
	return catalog.Product{}, catalog.ErrVariantNotFound
}

// GetProductVariant is the catalog's contract: the product with the one variant asked
// for (the default when vid is "", which products with explicit variants refuse).
func (f fakeCatalog) GetProductVariant(ctx context.Context, pid, vid string) (catalog.Product, error) {
	p, err := f.GetProduct(ctx, pid)
	if err != nil {
		return catalog.Product{}, err
	}
	for _, v := range p.Variants {
		if (vid == "" && v.IsDefault && !f.explicit[pid]) || (vid != "" && v.ID == vid) {
			p.Variants = []catalog.Variant{v}
			return p, nil
		}
	}
	if vid == "" {
		return catalog.Product{}, catalog.ErrVariantNotFound.WithMessage("variant_id is required: the product has variants")
	}
	return catalog.Product{}, catalog.ErrVariantNotFound
}

func TestProduct(t *testing.T) {
	t.Parallel()
	f := fakeCatalog{
		products: map[string]catalog.Product{
			"p1": {ID: "p1", Title: "Shirt", Status: "active", Currency: "EUR", ProductType: "apparel", ImageURL: "img", InventoryManagement: "commerce",
				Variants: []catalog.Variant{{ID: "v1", Title: "Default Title", SKU: "S1", Price: decimal.RequireFromString("9.50"), InventoryPolicy: "deny", InventoryQuantity: 4, IsDefault: true, RequiresShipping: true}}},
			"p2": {ID: "p2", Title: "Mug", Status: "draft", Currency: "USD", ProductType: "gift_card", Variants: []catalog.Variant{
				{ID: "d", Title: "Default Title", IsDefault: true}, {ID: "v2", Title: "Blue", SKU: "M2", Price: decimal.RequireFromString("3"), InventoryPolicy: "continue"},
			}},
		},
		explicit: map[string]bool{"p2": true},
		cols:     map[string][]string{"p1": {"c1", "c2"}},
	}
	a := catalogapi.NewAdapter(f)
	ctx := context.Background()
	p, err := a.Product(ctx, "p1", "")
	if err != nil {
		t.Fatal(err)
	}
	want := domain.Product{ProductID: "p1", VariantID: "v1", Title: "Shirt", VariantTitle: "", SKU: "S1", Status: "active", Currency: "EUR",
		Price: decimal.RequireFromString("9.50"), ImageURL: "img", RequiresShipping: true, InventoryTracked: true, InventoryPolicy: "deny", InventoryQuantity: 4}
	if p.ProductID != want.ProductID || p.VariantID != want.VariantID || p.VariantTitle != "" || p.Currency != "EUR" || !p.Price.Equal(want.Price) ||
		!p.InventoryTracked || p.InventoryQuantity != 4 || p.IsGiftCard || !p.RequiresShipping || p.SKU != "S1" || p.ImageURL != "img" {
		t.Errorf("product %+v", p)
	}
	p, err = a.Product(ctx, "p2", "v2")
	if err != nil || p.VariantTitle != "Blue" || !p.IsGiftCard || p.InventoryTracked || p.InventoryPolicy != "continue" || p.Status != "draft" {
		t.Errorf("variant %+v %v", p, err)
	}
	cases := []struct {
		pid, vid string
		want     error
	}{
		{"nope", "", domain.ErrProductNotFound},
		{"p1", "other", domain.ErrVariantNotFound},
		{"p2", "", domain.ErrVariantNotFound},
	}
	for _, tc := range cases {
		if _, err := a.Product(ctx, tc.pid, tc.vid); !errors.Is(err, tc.want) {
			t.Errorf("%s/%s: %v, want %v", tc.pid, tc.vid, err, tc.want)
		}
	}
	if cols, err := a.Collections(ctx, []string{"p1"}); err != nil || len(cols["p1"]) != 2 || cols["p1"][1] != "c2" {
		t.Errorf("collections %v %v", cols, err)
	}
}
