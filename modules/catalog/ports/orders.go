package ports

import "context"

// Orders answers whether orders reference a product (products with orders may only be
// archived, never deleted). The orders module implements it; until then
// adapters/noorders answers false.
type Orders interface {
	ProductHasOrders(ctx context.Context, productID string) (bool, error)
}
