package main

import (
	"context"
	"fmt"
	"io"

	catalogapi "github.com/gocommerce/commerce/modules/catalog/api"
	catalogapp "github.com/gocommerce/commerce/modules/catalog/app"
	customersapi "github.com/gocommerce/commerce/modules/customers/api"
	identityapi "github.com/gocommerce/commerce/modules/identity/api"
	inventoryapi "github.com/gocommerce/commerce/modules/inventory/api"
)

// Seeders are the module services the seed command uses.
type Seeders struct {
	Catalog      *catalogapp.Service
	CatalogAPI   catalogapi.Catalog
	Inventory    inventoryapi.Inventory
	Customers    customersapi.Customers
	ProductCount int
}

func newSeeders(c *catalogapp.Service, ca catalogapi.Catalog, in inventoryapi.Inventory, cu customersapi.Customers) *Seeders {
	return &Seeders{Catalog: c, CatalogAPI: ca, Inventory: in, Customers: cu, ProductCount: 50}
}

// seed loads demo data: a catalog with stock at the default location (recorded as
// movements, so levels and product totals agree), a few customers and a storefront API
// key, printed last.
func seed(ctx context.Context, a *App, w io.Writer) error {
	s := a.Seeders
	ids, err := s.Catalog.SeedProducts(ctx, catalogapp.SeedCommand{Count: s.ProductCount, VariantsPerProduct: 3, Currency: "USD", TitlePrefix: "Demo"})
	if err != nil {
		return fmt.Errorf("seed: products: %w", err)
	}
	products, err := s.CatalogAPI.GetProducts(ctx, ids)
	if err != nil {
		return fmt.Errorf("seed: products: %w", err)
	}
	for _, p := range products {
		for _, v := range p.Variants {
			if _, err := s.Inventory.Set(ctx, inventoryapi.SetCommand{
				ProductID: p.ID, VariantID: v.ID, LocationID: inventoryapi.DefaultLocationID,
				Quantity: v.InventoryQuantity, Reference: "seed", Actor: "seed",
			}); err != nil {
				return fmt.Errorf("seed: stock of %s: %w", p.Title, err)
			}
		}
	}
	fmt.Fprintf(w, "seeded: %d products with variants and stock\n", len(products))
	for _, c := range []customersapi.CreateCustomerCommand{
		{Email: "ada@example.com", FirstName: "Ada", LastName: "Lovelace", State: "enabled"},
		{Email: "grace@example.com", FirstName: "Grace", LastName: "Hopper", State: "enabled"},
	} {
		if _, err := s.Customers.CreateCustomer(ctx, c); err != nil {
			return fmt.Errorf("seed: customer %s: %w", c.Email, err)
		}
	}
	fmt.Fprintln(w, "seeded: 2 customers (ada@example.com, grace@example.com)")
	_, full, err := a.Identity.CreateAPIKey(ctx, identityapi.CreateAPIKeyCommand{
		Name:   "demo storefront",
		Scopes: []string{"products:read", "collections:read", "carts:write", "coupons:read"},
	})
	if err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	fmt.Fprintln(w, "seeded: demo storefront API key (products:read, collections:read, carts:write, coupons:read):")
	fmt.Fprintln(w, full)
	return nil
}
