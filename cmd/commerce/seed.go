package main

import (
	"context"
	"fmt"
	"io"

	identityapi "github.com/gocommerce/commerce/modules/identity/api"
)

// seed loads demo data: a storefront API key. Later modules add catalog and customers.
func seed(ctx context.Context, a *App, w io.Writer) error {
	_, full, err := a.Identity.CreateAPIKey(ctx, identityapi.CreateAPIKeyCommand{
		Name:   "demo storefront",
		Scopes: []string{"products:read", "collections:read", "carts:write", "coupons:read"},
	})
	if err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	fmt.Fprintln(w, "seeded: demo storefront API key (products:read, collections:read, carts:write, coupons:read)")
	fmt.Fprintln(w, full)
	return nil
}
