// Package catalogapi implements the carts module's ports.Catalog on top of the catalog
// module's api.
package catalogapi

import (
	"context"
	"errors"
	"strings"

	catalog "github.com/gocommerce/commerce/modules/catalog/api"

	"github.com/gocommerce/commerce/modules/carts/domain"
	"github.com/gocommerce/commerce/modules/carts/ports"
	"github.com/gocommerce/commerce/platform/apperr"
)

// Adapter reads products for carts.
type Adapter struct {
	catalog catalog.Catalog
}

var _ ports.Catalog = (*Adapter)(nil)

// NewAdapter builds the adapter.
func NewAdapter(c catalog.Catalog) *Adapter { return &Adapter{catalog: c} }

// GiftCardProductType is the product_type that marks gift cards.
const GiftCardProductType = "gift_card"

// Product returns the product variant (the default variant when variantID is ""), in
// one catalog read of the product with that variant only.
func (a *Adapter) Product(ctx context.Context, productID, variantID string) (domain.Product, error) {
	p, err := a.catalog.GetProductVariant(ctx, productID, variantID)
	if err != nil {
		return domain.Product{}, translate(err)
	}
	if len(p.Variants) != 1 {
		return domain.Product{}, domain.ErrVariantNotFound
	}
	v := &p.Variants[0]
	variantTitle := v.Title
	if v.IsDefault {
		variantTitle = "" // the default variant has no title of its own ("Default Title")
	}
	return domain.Product{
		ProductID: p.ID, VariantID: v.ID, Title: p.Title, VariantTitle: variantTitle, SKU: v.SKU, Status: p.Status,
		Currency: p.Currency, Price: v.Price, ImageURL: p.ImageURL, RequiresShipping: v.RequiresShipping,
		IsGiftCard: strings.EqualFold(p.ProductType, GiftCardProductType), InventoryTracked: p.InventoryManagement != "",
		InventoryPolicy: v.InventoryPolicy, InventoryQuantity: v.InventoryQuantity,
	}, nil
}

// Collections returns the collection ids of each product, for collection-restricted
// coupons.
func (a *Adapter) Collections(ctx context.Context, productIDs []string) (map[string][]string, error) {
	return a.catalog.ProductCollections(ctx, productIDs)
}

func translate(err error) error {
	switch {
	case errors.Is(err, catalog.ErrProductNotFound):
		return domain.ErrProductNotFound
	case errors.Is(err, catalog.ErrVariantNotFound):
		if e, ok := apperr.As(err); ok && e.Message != "" {
			return domain.ErrVariantNotFound.WithMessage("%s", e.Message)
		}
		return domain.ErrVariantNotFound
	}
	return err
}
