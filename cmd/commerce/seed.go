package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

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

// Demo data the seed command loads.
var (
	demoCustomers = []customersapi.CreateCustomerCommand{
		{Email: "ada@example.com", FirstName: "Ada", LastName: "Lovelace", State: "enabled"},
		{Email: "grace@example.com", FirstName: "Grace", LastName: "Hopper", State: "enabled"},
	}
	demoKeyName   = "demo storefront"
	demoKeyScopes = []string{"products:read", "collections:read", "carts:write", "coupons:read"}
)

// seed loads demo data: a catalog with stock at the default location (recorded as
// movements, so levels and product totals agree), a few customers and a storefront API
// key, printed last. It can run on a store that already has data: each part that is
// there already is skipped, with one line saying so (the catalog when the store has any
// product, a customer whose email is registered, the key while one of that name is
// active), so a second run changes nothing and succeeds.
func seed(ctx context.Context, a *App, w io.Writer) error {
	seeded, err := seedCatalog(ctx, a.Seeders, w)
	if err != nil {
		return err
	}
	for _, c := range demoCustomers {
		_, err := a.Seeders.Customers.CreateCustomer(ctx, c)
		switch {
		case errors.Is(err, customersapi.ErrEmailTaken):
			fmt.Fprintf(w, "skipped: customer %s (the email is already registered)\n", c.Email)
		case err != nil:
			return fmt.Errorf("seed: customer %s: %w", c.Email, err)
		default:
			fmt.Fprintf(w, "seeded: customer %s\n", c.Email)
			seeded = true
		}
	}
	keys, err := a.Identity.ListAPIKeys(ctx)
	if err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	for _, k := range keys {
		if k.Name == demoKeyName && !k.Revoked {
			fmt.Fprintf(w, "skipped: %s API key (%s exists; its secret was shown once, when it was created)\n", demoKeyName, k.Prefix)
			if !seeded {
				fmt.Fprintln(w, "nothing to seed: the demo data is already there")
			}
			return nil
		}
	}
	_, full, err := a.Identity.CreateAPIKey(ctx, identityapi.CreateAPIKeyCommand{Name: demoKeyName, Scopes: demoKeyScopes})
	if err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	fmt.Fprintf(w, "seeded: %s API key (%s):\n", demoKeyName, strings.Join(demoKeyScopes, ", "))
	fmt.Fprintln(w, full)
	return nil
}

// seedCatalog loads the demo catalog and its stock, unless the store has products
// already (the demo catalog, or the merchant's own). It reports whether it seeded.
func seedCatalog(ctx context.Context, s *Seeders, w io.Writer) (bool, error) {
	q := catalogapp.ListProductsQuery{}
	q.Limit = 1
	_, total, err := s.Catalog.ListProducts(ctx, q)
	if err != nil {
		return false, fmt.Errorf("seed: products: %w", err)
	}
	if total > 0 {
		fmt.Fprintf(w, "skipped: demo catalog (the store has %d products already)\n", total)
		return false, nil
	}
	ids, err := s.Catalog.SeedProducts(ctx, catalogapp.SeedCommand{Count: s.ProductCount, VariantsPerProduct: 3, Currency: "USD", TitlePrefix: "Demo"})
	if err != nil {
		return false, fmt.Errorf("seed: products: %w", err)
	}
	products, err := s.CatalogAPI.GetProducts(ctx, ids)
	if err != nil {
		return false, fmt.Errorf("seed: products: %w", err)
	}
	for _, p := range products {
		for _, v := range p.Variants {
			if _, err := s.Inventory.Set(ctx, inventoryapi.SetCommand{
				ProductID: p.ID, VariantID: v.ID, LocationID: inventoryapi.DefaultLocationID,
				Quantity: v.InventoryQuantity, Reference: "seed", Actor: "seed",
			}); err != nil {
				return false, fmt.Errorf("seed: stock of %s: %w", p.Title, err)
			}
		}
	}
	fmt.Fprintf(w, "seeded: %d products with variants and stock\n", len(products))
	return true, nil
}
