// Package catalogapi implements the subscriptions module's ports.Catalog on the
// catalog module's api.
package catalogapi

import (
	"context"

	catalog "github.com/gocommerce/commerce/modules/catalog/api"
	"github.com/gocommerce/commerce/modules/subscriptions/ports"
)

// Adapter is ports.Catalog over catalog.Catalog.
type Adapter struct{ catalog catalog.Catalog }

var _ ports.Catalog = (*Adapter)(nil)

// NewAdapter builds the adapter.
func NewAdapter(c catalog.Catalog) *Adapter { return &Adapter{catalog: c} }

// ProductName is the product's title.
func (a *Adapter) ProductName(ctx context.Context, id string) (string, error) {
	p, err := a.catalog.GetProduct(ctx, id)
	return p.Title, err
}
