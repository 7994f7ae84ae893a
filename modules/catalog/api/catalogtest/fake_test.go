package catalogtest

import (
	"context"
	"errors"
	"testing"

	"github.com/gocommerce/commerce/modules/catalog/api"
)

func TestFake(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := New()
	f.Put(api.Product{ID: "p", Variants: []api.Variant{{ID: "v1", ProductID: "p", IsDefault: true, InventoryQuantity: 2}}})
	if v, err := f.GetVariant(ctx, "p", ""); err != nil || v.ID != "v1" {
		t.Fatalf("default %+v %v", v, err)
	}
	if _, err := f.GetVariant(ctx, "p", "v9"); !errors.Is(err, api.ErrVariantNotFound) {
		t.Fatalf("missing variant %v", err)
	}
	if p, err := f.GetProductVariant(ctx, "p", ""); err != nil || len(p.Variants) != 1 || p.Variants[0].ID != "v1" {
		t.Fatalf("product variant %+v %v", p, err)
	}
	if _, err := f.GetProductVariant(ctx, "p", "v9"); !errors.Is(err, api.ErrVariantNotFound) {
		t.Fatalf("missing product variant %v", err)
	}
	if p, err := f.FindVariant(ctx, "v1"); err != nil || p.ID != "p" || len(p.Variants) != 1 || p.Variants[0].ID != "v1" {
		t.Fatalf("find variant %+v %v", p, err)
	}
	if _, err := f.FindVariant(ctx, "v9"); !errors.Is(err, api.ErrVariantNotFound) {
		t.Fatalf("find missing variant %v", err)
	}
	if _, err := f.GetProduct(ctx, "x"); !errors.Is(err, api.ErrProductNotFound) {
		t.Fatalf("missing product %v", err)
	}
	if err := f.SetInventoryQuantities(ctx, []api.InventoryQuantity{{ProductID: "p", VariantID: "v1", Quantity: 7}}); err != nil {
		t.Fatal(err)
	}
	if p, _ := f.GetProduct(ctx, "p"); p.InventoryQuantity != 7 || p.Variants[0].InventoryQuantity != 7 || len(f.Sets) != 1 {
		t.Fatalf("after set %+v", p)
	}
	if ps, _ := f.GetProducts(ctx, []string{"x", "p", "p"}); len(ps) != 1 {
		t.Fatalf("GetProducts %+v", ps)
	}
}
