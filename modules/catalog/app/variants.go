package app

import (
	"context"

	"github.com/gocommerce/commerce/modules/catalog/api"
	"github.com/gocommerce/commerce/modules/catalog/domain"
	"github.com/gocommerce/commerce/modules/catalog/ports"
	"github.com/gocommerce/commerce/platform/ids"
)

// ListVariants returns a page of a product's variants (default first) and the total.
func (s *Service) ListVariants(ctx context.Context, productID string, activeOnly bool, offset, limit int) ([]api.VariantResource, int64, error) {
	return listParts(ctx, s, s.variants, productID, activeOnly, offset, limit, func(p *domain.Product, v *domain.Variant) api.VariantResource {
		return toVariantResource(v, p.Currency)
	})
}

// listParts returns a page of a visible product's parts (variants, images) as view
// shows them, and their total.
func listParts[T, R any](ctx context.Context, s *Service, parts ports.ProductPartRepository[T], productID string, activeOnly bool,
	offset, limit int, view func(p *domain.Product, part *T) R) ([]R, int64, error) {
	p, err := s.visibleProduct(ctx, productID, activeOnly)
	if err != nil {
		return nil, 0, err
	}
	list, total, err := parts.List(ctx, p.ID, offset, limit)
	if err != nil {
		return nil, 0, err
	}
	return mapAll(list, func(part *T) R { return view(p, part) }), total, nil
}

// GetVariantResource reads one variant of a product.
func (s *Service) GetVariantResource(ctx context.Context, productID, variantID string, activeOnly bool) (api.VariantResource, error) {
	p, err := s.visibleProduct(ctx, productID, activeOnly)
	if err != nil {
		return api.VariantResource{}, err
	}
	if !ids.Valid(variantID) {
		return api.VariantResource{}, domain.ErrVariantNotFound
	}
	v, err := s.variants.Get(ctx, p.ID, variantID)
	if err != nil {
		return api.VariantResource{}, err
	}
	return toVariantResource(v, p.Currency), nil
}

// CreateVariant adds an explicit variant. The first explicit variant replaces the
// default variant (deleted, as in Shopify) and sets has_variants; the product's stock
// becomes the sum of its variants'. Events: variant.deleted (the default variant, when
// replaced), variant.created, product.updated, catalog.stock_set when
// inventory_quantity is given, stock events when the product total moved.
func (s *Service) CreateVariant(ctx context.Context, productID string, in domain.VariantInput) (api.VariantResource, error) {
	var out api.VariantResource
	err := s.writeProduct(ctx, productID, func(ctx context.Context, p *domain.Product) error {
		now := s.clock.Now()
		v, err := domain.NewVariant(s.newID(), p, in, now)
		if err != nil {
			return err
		}
		vs, err := s.variantsOf(ctx, p.ID)
		if err != nil {
			return err
		}
		kept := make([]*domain.Variant, 0, len(vs)+1)
		for _, old := range vs {
			if !old.IsDefault {
				kept = append(kept, old)
				continue
			}
			if err := s.variants.Delete(ctx, p.ID, old.ID); err != nil {
				return err
			}
			if err := s.publish(ctx, api.EventVariantDeleted, old.ID, toVariantResource(old, p.Currency)); err != nil {
				return err
			}
		}
		if err := s.variants.Create(ctx, v); err != nil {
			return err
		}
		kept = append(kept, v)
		before := p.InventoryQuantity
		p.HasVariants = true
		p.InventoryQuantity = sumQuantities(kept)
		if p.InventoryQuantity > domain.MaxInventoryQuantity {
			return domain.StockLimitField
		}
		p.UpdatedAt = now
		if err := s.products.Update(ctx, p); err != nil {
			return err
		}
		out = toVariantResource(v, p.Currency)
		res := withVariants(p, kept)
		if err := s.publish(ctx, api.EventVariantCreated, v.ID, out); err != nil {
			return err
		}
		if err := s.publish(ctx, api.EventProductUpdated, p.ID, res); err != nil {
			return err
		}
		return s.variantStockEvents(ctx, in.InventoryQuantity.Set, p, v, before, res)
	})
	return result(out, err)
}

// UpdateVariant changes the present fields of a variant (PUT with partial semantics, as
// Shopify's variant update). An update of the default variant carries its shared fields
// (price, compare/cost price, policy, weight, unit, requires_shipping, stock) back to the
// product. Events: variant.updated, product.updated when the product changed,
// catalog.stock_set when inventory_quantity is given, stock events.
func (s *Service) UpdateVariant(ctx context.Context, productID, variantID string, in domain.VariantInput) (api.VariantResource, error) {
	if err := variantIDs(productID, variantID); err != nil {
		return api.VariantResource{}, err
	}
	var out api.VariantResource
	err := s.writeTx(ctx, func(ctx context.Context) error {
		now := s.clock.Now()
		p, v, err := s.lockVariant(ctx, productID, variantID)
		if err != nil {
			return err
		}
		if err := v.Apply(in, p.Currency, now); err != nil {
			return err
		}
		if err := s.variants.Update(ctx, v); err != nil {
			return err
		}
		before := p.InventoryQuantity
		productChanged := false
		if v.IsDefault {
			productChanged = domain.MirrorVariantToProduct(v, p)
		} else if in.InventoryQuantity.Set {
			sums, err := s.variants.SumQuantities(ctx, []string{p.ID})
			if err != nil {
				return err
			}
			p.InventoryQuantity = sums[p.ID]
			if p.InventoryQuantity > domain.MaxInventoryQuantity {
				return domain.StockLimitField
			}
		}
		if productChanged || p.InventoryQuantity != before {
			if productChanged {
				p.UpdatedAt = now
			}
			if err := s.products.Update(ctx, p); err != nil {
				return err
			}
		}
		out = toVariantResource(v, p.Currency)
		if err := s.publish(ctx, api.EventVariantUpdated, v.ID, out); err != nil {
			return err
		}
		vs, err := s.variantsOf(ctx, p.ID)
		if err != nil {
			return err
		}
		res := withVariants(p, vs)
		if productChanged {
			if err := s.publish(ctx, api.EventProductUpdated, p.ID, res); err != nil {
				return err
			}
		}
		return s.variantStockEvents(ctx, in.InventoryQuantity.Set, p, v, before, res)
	})
	return result(out, err)
}

// DeleteVariant removes an explicit variant. Deleting the last explicit variant
// recreates the default variant from the product (price, weight, policy; no SKU, no
// stock) and clears has_variants. The default variant itself cannot be deleted
// (DEFAULT_VARIANT_REQUIRED). Events: variant.deleted, variant.created (recreated
// default), product.updated, stock events.
func (s *Service) DeleteVariant(ctx context.Context, productID, variantID string) error {
	if err := variantIDs(productID, variantID); err != nil {
		return err
	}
	return s.writeTx(ctx, func(ctx context.Context) error {
		now := s.clock.Now()
		p, v, err := s.lockVariant(ctx, productID, variantID)
		if err != nil {
			return err
		}
		if v.IsDefault {
			return domain.ErrDefaultVariantRequired
		}
		vs, err := s.variantsOf(ctx, p.ID)
		if err != nil {
			return err
		}
		if err := s.variants.Delete(ctx, p.ID, v.ID); err != nil {
			return err
		}
		if err := s.publish(ctx, api.EventVariantDeleted, v.ID, toVariantResource(v, p.Currency)); err != nil {
			return err
		}
		kept := make([]*domain.Variant, 0, len(vs))
		for _, o := range vs {
			if o.ID != v.ID {
				kept = append(kept, o)
			}
		}
		before := p.InventoryQuantity
		p.InventoryQuantity = sumQuantities(kept)
		if p.InventoryQuantity > domain.MaxInventoryQuantity {
			return domain.StockLimitField
		}
		p.UpdatedAt = now
		if len(kept) == 0 {
			p.HasVariants = false
			def := domain.NewDefaultVariant(s.newID(), p, "", "", now)
			if err := s.variants.Create(ctx, def); err != nil {
				return err
			}
			kept = append(kept, def)
			if err := s.publish(ctx, api.EventVariantCreated, def.ID, toVariantResource(def, p.Currency)); err != nil {
				return err
			}
		}
		if err := s.products.Update(ctx, p); err != nil {
			return err
		}
		res := withVariants(p, kept)
		if err := s.publish(ctx, api.EventProductUpdated, p.ID, res); err != nil {
			return err
		}
		return s.stockEvents(ctx, before, p.InventoryQuantity, p.LowStockThreshold, res)
	})
}

// lockVariant locks the product and reads its variant.
func (s *Service) lockVariant(ctx context.Context, productID, variantID string) (*domain.Product, *domain.Variant, error) {
	p, err := s.products.GetForUpdate(ctx, productID)
	if err != nil {
		return nil, nil, err
	}
	v, err := s.variants.Get(ctx, p.ID, variantID)
	return p, v, err
}

// variantIDs refuses ids that cannot name a product or a variant.
func variantIDs(productID, variantID string) error {
	if !ids.Valid(productID) {
		return domain.ErrProductNotFound
	}
	if !ids.Valid(variantID) {
		return domain.ErrVariantNotFound
	}
	return nil
}

// variantStockEvents publishes catalog.stock_set when the request set v's stock,
// then the product's stock events (before is its stock before the change).
func (s *Service) variantStockEvents(ctx context.Context, stockSet bool, p *domain.Product, v *domain.Variant, before int, res api.ProductResource) error {
	if stockSet {
		if err := s.publish(ctx, api.EventStockSet, p.ID, api.StockSet{ProductID: p.ID, VariantID: v.ID, Quantity: v.InventoryQuantity}); err != nil {
			return err
		}
	}
	return s.stockEvents(ctx, before, p.InventoryQuantity, p.LowStockThreshold, res)
}

func sumQuantities(vs []*domain.Variant) int {
	n := 0
	for _, v := range vs {
		n += v.InventoryQuantity
	}
	return n
}
