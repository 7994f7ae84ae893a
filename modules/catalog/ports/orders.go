package ports

import "context"

// Orders answers whether orders reference a product (such a product is deleted only with
// force=true; decision 0025). The orders module implements it; until then
// adapters/noorders answers false.
type Orders interface {
	ProductHasOrders(ctx context.Context, productID string) (bool, error)
}
