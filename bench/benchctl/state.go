package main

import (
	"encoding/json"
	"os"
)

// catalogFile is what seed-catalog writes: every seeded product with its variants.
type catalogFile struct {
	Currency string         `json:"currency"`
	Products []productEntry `json:"products"`
	Seconds  float64        `json:"seconds"`
}

type productEntry struct {
	ID       string   `json:"id"`
	Variants []string `json:"variants"`
}

// stateFile is what seed-http writes: the customers, their carts, the coupon.
type stateFile struct {
	// Coupon is the code of the percentage coupon, "" when the coupons API is missing.
	Coupon string `json:"coupon"`
	// CouponsMissing explains why there is no coupon.
	CouponsMissing string `json:"coupons_missing,omitempty"`
	// CartsMissing explains why customers have no carts.
	CartsMissing string     `json:"carts_missing,omitempty"`
	Customers    []customer `json:"customers"`
	Seconds      float64    `json:"seconds"`
}

type customer struct {
	Email string `json:"email"`
	Token string `json:"token"`
	Cart  string `json:"cart,omitempty"`
	// Items are the (product, variant) pairs this customer adds to the cart.
	Items []item `json:"items"`
}

type item struct {
	ProductID string `json:"product_id"`
	VariantID string `json:"variant_id,omitempty"`
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path) //nolint:gosec // files named by the benchmark's own flags
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o600)
}
