package catalogapi_test

import (
	"context"
	"errors"
	"testing"

	catalog "github.com/gocommerce/commerce/modules/catalog/api"
	"github.com/gocommerce/commerce/modules/catalog/api/catalogtest"
	"github.com/gocommerce/commerce/modules/inventory/adapters/catalogapi"
	"github.com/gocommerce/commerce/modules/inventory/domain"
	"github.com/gocommerce/commerce/modules/inventory/ports"
)

// failingSets is the fake catalog whose SetInventoryQuantities fails.
type failingSets struct{ *catalogtest.Fake }

func (failingSets) SetInventoryQuantities(context.Context, []catalog.InventoryQuantity) error {
	return errors.New("db down")
}

func TestAdapter(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := catalogtest.New()
	f.Put(catalog.Product{ID: "p1", Title: "Mug", Currency: "EUR", LowStockThreshold: 4, InventoryPolicy: "continue",
		Variants: []catalog.Variant{{ID: "v1", ProductID: "p1", Title: "Default", SKU: "MUG", IsDefault: true}}})
	f.Put(catalog.Product{ID: "p2", Title: "Shirt", Currency: "USD", InventoryPolicy: "deny",
		Variants: []catalog.Variant{
			{ID: "v2", ProductID: "p2", Title: "S", SKU: "S-S", InventoryPolicy: "deny"},
			{ID: "v3", ProductID: "p2", Title: "M", SKU: "S-M", InventoryPolicy: "continue"},
		}})
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
	vs, err := a.GetVariants(ctx, []ports.VariantRef{{ProductID: "p2", VariantID: "v3"}, {ProductID: "p1"}, {ProductID: "p2", VariantID: "v2"}})
	if err != nil || len(vs) != 3 || vs[0].VariantID != "v3" || vs[0].Policy != domain.PolicyContinue || vs[1] != want || vs[2].Policy != domain.PolicyDeny {
		t.Fatalf("GetVariants = %+v, %v", vs, err)
	}
	if _, err := a.GetVariants(ctx, []ports.VariantRef{{ProductID: "p1", VariantID: "v1"}, {ProductID: "p2", VariantID: "v1"}}); !errors.Is(err, domain.ErrVariantNotFound) {
		t.Fatalf("GetVariants, another product's variant: %v", err)
	}
	if _, err := a.GetVariants(ctx, []ports.VariantRef{{ProductID: "p9", VariantID: "v1"}}); !errors.Is(err, domain.ErrProductNotFound) {
		t.Fatalf("GetVariants, unknown product: %v", err)
	}
	if p, err := a.GetProduct(ctx, "p2"); err != nil || p != (ports.Product{ID: "p2", Name: "Shirt", Currency: "USD"}) {
		t.Fatalf("GetProduct = %+v, %v", p, err)
	}
	if _, err := a.GetProduct(ctx, "p9"); !errors.Is(err, domain.ErrProductNotFound) {
		t.Fatalf("GetProduct unknown: %v", err)
	}
	if err := a.SetInventoryQuantities(ctx, []ports.VariantTotal{{ProductID: "p2", VariantID: "v2", Available: 7}}); err != nil ||
		len(f.Sets) != 1 || len(f.Sets[0]) != 1 || f.Sets[0][0] != (catalog.InventoryQuantity{ProductID: "p2", VariantID: "v2", Quantity: 7}) {
		t.Fatalf("SetInventoryQuantities: %v %+v", err, f.Sets)
	}
	if err := catalogapi.NewAdapter(failingSets{f}).SetInventoryQuantities(ctx, nil); err == nil {
		t.Fatal("error swallowed")
	}
}
