package app

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/shopspring/decimal"
	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/catalog/api"
	"github.com/gocommerce/commerce/modules/catalog/domain"
	"github.com/gocommerce/commerce/modules/catalog/ports"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/ids"
)

// slugAttempts bounds retries when a generated slug is taken concurrently.
const slugAttempts = 5

// slugRule is how a create use case names what it stores: generated (no slug given)
// means a free slug derived from title (kind names an untitled one), read with like,
// and a retry when a concurrent create took it (the taken error).
type slugRule struct {
	generated   bool
	title, kind string
	slug        *string
	like        func(ctx context.Context, base string) ([]string, error)
	taken       error
}

// createWithSlug runs create in the write transaction write, first setting a
// generated slug to a free one; a slug taken concurrently retries, up to slugAttempts,
// the last attempt with a random suffix that guarantees progress.
func (s *Service) createWithSlug(ctx context.Context, write func(context.Context, func(context.Context) error) error, r slugRule, create func(ctx context.Context) error) error {
	for attempt := 1; ; attempt++ {
		err := write(ctx, func(ctx context.Context) error {
			if r.generated {
				base := domain.Slugify(r.title, r.kind)
				if attempt < slugAttempts {
					taken, err := r.like(ctx, base)
					if err != nil {
						return err
					}
					*r.slug = domain.UniqueSlug(base, taken)
				} else {
					*r.slug = base + "-" + s.newID()[30:]
				}
			}
			return create(ctx)
		})
		if r.generated && attempt < slugAttempts && errors.Is(err, r.taken) {
			continue
		}
		return err
	}
}

// Include names the related resources a product read adds.
type Include struct {
	Variants    bool
	Images      bool
	Collections bool
}

// GetProductQuery reads one product by id or slug.
type GetProductQuery struct {
	IDOrSlug string
	Include  Include
	// ActiveOnly hides products that are not active (readers without products:write).
	ActiveOnly bool
}

// ListProductsQuery is a product list request.
type ListProductsQuery struct {
	ports.ProductFilter
	// CollectionID limits the list to a collection's products (COLLECTION_NOT_FOUND when
	// the collection does not exist or is hidden).
	CollectionID string
	// ActiveOnly hides products that are not active and inactive collections.
	ActiveOnly bool
	// Order is "asc", "desc" or "" (the sort's default: desc, position asc).
	Order string
}

// CreateProduct validates and stores a product with its default variant. A slug
// generated from the title is made unique with -2, -3 ...; a slug given and taken is
// PRODUCT_SLUG_TAKEN. Events: product.created, variant.created (the default variant),
// product.published when created active, catalog.stock_set when inventory_quantity is
// given.
func (s *Service) CreateProduct(ctx context.Context, in domain.ProductInput) (api.ProductResource, error) {
	now := s.clock.Now()
	p, err := domain.NewProduct(s.newID(), in, now)
	if err != nil {
		return api.ProductResource{}, err
	}
	var out api.ProductResource
	err = s.createWithSlug(ctx, s.writeTx, slugRule{
		generated: !in.Slug.Set, title: p.Title, kind: "product", slug: &p.Slug,
		like: s.products.SlugsLike, taken: domain.ErrProductSlugTaken,
	}, func(ctx context.Context) error {
		if err := s.products.Create(ctx, p); err != nil {
			return err
		}
		v := domain.NewDefaultVariant(s.newID(), p, in.SKU.Value, in.Barcode.Value, now)
		if err := s.variants.Create(ctx, v); err != nil {
			return err
		}
		out = withVariants(p, []*domain.Variant{v})
		if err := s.publish(ctx, api.EventProductCreated, p.ID, out); err != nil {
			return err
		}
		if err := s.publish(ctx, api.EventVariantCreated, v.ID, toVariantResource(v, p.Currency)); err != nil {
			return err
		}
		if p.Status == domain.StatusActive {
			if err := s.publish(ctx, api.EventProductPublished, p.ID, out); err != nil {
				return err
			}
		}
		if in.InventoryQuantity.Set {
			return s.publish(ctx, api.EventStockSet, p.ID, api.StockSet{ProductID: p.ID, VariantID: v.ID, Quantity: v.InventoryQuantity})
		}
		return nil
	})
	return result(out, err)
}

// ReplaceProduct is PUT: every writable field must be present (domain.ReplaceFields).
func (s *Service) ReplaceProduct(ctx context.Context, id string, in domain.ProductInput) (api.ProductResource, error) {
	if err := in.CheckReplace(); err != nil {
		return api.ProductResource{}, err
	}
	return s.UpdateProduct(ctx, id, in)
}

// UpdateProduct is PATCH: the present fields change. While the product has only its
// default variant, the variant follows the product's price, weight, policy and stock
// (and takes sku/barcode). Events: product.updated, variant.updated (default variant
// changed), product.published / product.unpublished, catalog.stock_set when
// inventory_quantity is given, product.inventory_changed (and low_stock / out_of_stock
// crossings) when the stock total changed.
func (s *Service) UpdateProduct(ctx context.Context, id string, in domain.ProductInput) (api.ProductResource, error) {
	var out api.ProductResource
	err := s.writeProduct(ctx, id, func(ctx context.Context, p *domain.Product) error {
		now := s.clock.Now()
		vs, err := s.variantsOf(ctx, p.ID)
		if err != nil {
			return err
		}
		if p.HasVariants {
			bad := map[string]string{}
			for name, set := range map[string]bool{"inventory_quantity": in.InventoryQuantity.Set, "sku": in.SKU.Set, "barcode": in.Barcode.Set} {
				if set {
					bad[name] = "this product has variants: set " + name + " on each variant"
				}
			}
			if len(bad) > 0 {
				return apperr.Validation(bad)
			}
		}
		before := p.Clone()
		ch, err := p.Apply(in, now)
		if err != nil {
			return err
		}
		if p.Currency != before.Currency {
			for _, v := range vs {
				for name, d := range map[string]*decimal.Decimal{"price": &v.Price, "compare_at_price": v.CompareAtPrice, "cost_price": v.CostPrice} {
					if d != nil && !domain.FitsCurrency(*d, p.Currency) {
						return domain.ErrInvalidPrice.WithMessage("variant %s %s has more decimals than %s allows", v.ID, name, p.Currency).
							WithField("currency", "variant amounts do not fit "+p.Currency)
					}
				}
			}
		}
		if err := s.products.Update(ctx, p); err != nil {
			return err
		}
		var def *domain.Variant
		var defChanged bool
		if !p.HasVariants {
			for i, v := range vs {
				if v.IsDefault {
					dv := v.Clone()
					defChanged = domain.MirrorProductToVariant(p, dv)
					if in.SKU.Set {
						defChanged = defChanged || dv.SKU != strings.TrimSpace(in.SKU.Value)
						dv.SKU = strings.TrimSpace(in.SKU.Value)
					}
					if in.Barcode.Set {
						defChanged = defChanged || dv.Barcode != strings.TrimSpace(in.Barcode.Value)
						dv.Barcode = strings.TrimSpace(in.Barcode.Value)
					}
					if defChanged {
						dv.UpdatedAt = now
						if err := s.variants.Update(ctx, dv); err != nil {
							return err
						}
					}
					vs[i], def = dv, dv
				}
			}
		}
		out = withVariants(p, vs)
		if err := s.publish(ctx, api.EventProductUpdated, p.ID, out); err != nil {
			return err
		}
		if def != nil && defChanged {
			if err := s.publish(ctx, api.EventVariantUpdated, def.ID, toVariantResource(def, p.Currency)); err != nil {
				return err
			}
		}
		if ch.Published {
			if err := s.publish(ctx, api.EventProductPublished, p.ID, out); err != nil {
				return err
			}
		}
		if ch.Unpublished {
			if err := s.publish(ctx, api.EventProductUnpublished, p.ID, out); err != nil {
				return err
			}
		}
		if in.InventoryQuantity.Set && def != nil {
			if err := s.publish(ctx, api.EventStockSet, p.ID, api.StockSet{ProductID: p.ID, VariantID: def.ID, Quantity: p.InventoryQuantity}); err != nil {
				return err
			}
		}
		return s.stockEvents(ctx, before.InventoryQuantity, p.InventoryQuantity, p.LowStockThreshold, out)
	})
	return result(out, err)
}

// DeleteProduct deletes a product with its variants, images (files included, after
// commit), tags and collection memberships: 204 semantics, event product.deleted.
// Without force, a product that orders reference is PRODUCT_HAS_ORDERS and nothing
// changes; with force it is deleted like any other product (orders keep their own
// snapshot of their lines: decision 0025).
func (s *Service) DeleteProduct(ctx context.Context, id string, force bool) error {
	var keys []string
	err := s.writeProduct(ctx, id, func(ctx context.Context, p *domain.Product) error {
		if !force {
			has, err := s.orders.ProductHasOrders(ctx, p.ID)
			if err != nil {
				return err
			}
			if has {
				return domain.ErrProductHasOrders
			}
		}
		vs, err := s.variantsOf(ctx, p.ID)
		if err != nil {
			return err
		}
		imgs, err := s.images.ListByProduct(ctx, p.ID)
		if err != nil {
			return err
		}
		for _, img := range imgs {
			keys = append(keys, img.StorageKey)
		}
		if err := s.products.Delete(ctx, p.ID); err != nil {
			return err
		}
		return s.publish(ctx, api.EventProductDeleted, p.ID, withVariants(p, vs))
	})
	if err != nil {
		return err
	}
	s.removeFiles(ctx, keys)
	return nil
}

// GetProductResource reads a product by id, or by slug when no product has that id.
func (s *Service) GetProductResource(ctx context.Context, q GetProductQuery) (api.ProductResource, error) {
	p, err := s.findProduct(ctx, q.IDOrSlug, q.ActiveOnly)
	if err != nil {
		return api.ProductResource{}, err
	}
	out := toProductResource(p)
	if q.Include.Variants {
		vs, err := s.variantsOf(ctx, p.ID)
		if err != nil {
			return api.ProductResource{}, err
		}
		list := toVariantResources(vs, p.Currency)
		out.Variants = &list
	}
	if q.Include.Images {
		imgs, err := s.images.ListByProduct(ctx, p.ID)
		if err != nil {
			return api.ProductResource{}, err
		}
		list := mapAll(imgs, toImageResource)
		out.Images = &list
	}
	if q.Include.Collections {
		cs, err := s.collectionsOf(ctx, p, q.ActiveOnly)
		if err != nil {
			return api.ProductResource{}, err
		}
		list := mapAll(cs, toCollectionResource)
		out.Collections = &list
	}
	return out, nil
}

// findByIDOrSlug reads by id when idOrSlug is an id and, when that finds nothing
// (notFound), by slug when it is a slug.
func findByIDOrSlug[T any](ctx context.Context, idOrSlug string, notFound error, byID, bySlug func(context.Context, string) (T, error)) (T, error) {
	var (
		v   T
		err = notFound
	)
	if ids.Valid(idOrSlug) {
		v, err = byID(ctx, idOrSlug)
	}
	if errors.Is(err, notFound) && domain.ValidSlug(idOrSlug) {
		v, err = bySlug(ctx, idOrSlug)
	}
	return v, err
}

// findProduct resolves an id or slug; hidden products are not found.
func (s *Service) findProduct(ctx context.Context, idOrSlug string, activeOnly bool) (*domain.Product, error) {
	p, err := findByIDOrSlug(ctx, idOrSlug, domain.ErrProductNotFound, s.products.Get, s.products.GetBySlug)
	if err != nil {
		return nil, err
	}
	if activeOnly && p.Status != domain.StatusActive {
		return nil, domain.ErrProductNotFound
	}
	return p, nil
}

// visibleProduct loads a product by id for a nested resource (variants, images).
func (s *Service) visibleProduct(ctx context.Context, id string, activeOnly bool) (*domain.Product, error) {
	if !ids.Valid(id) {
		return nil, domain.ErrProductNotFound
	}
	p, err := s.products.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if activeOnly && p.Status != domain.StatusActive {
		return nil, domain.ErrProductNotFound
	}
	return p, nil
}

// ListProducts returns a page of product summaries and the total.
func (s *Service) ListProducts(ctx context.Context, q ListProductsQuery) ([]api.ProductSummary, int64, error) {
	f := q.ProductFilter
	if q.ActiveOnly {
		if f.Status != "" && f.Status != domain.StatusActive {
			return []api.ProductSummary{}, 0, nil
		}
		f.Status = domain.StatusActive
	}
	if q.CollectionID != "" {
		c, err := s.findCollection(ctx, q.CollectionID, q.ActiveOnly)
		if err != nil {
			return nil, 0, err
		}
		f.Collection = c
	}
	if f.Sort == "" {
		switch {
		case f.Collection != nil && f.Collection.CollectionType == domain.CollectionManual:
			f.Sort = ports.SortPosition
		case f.Query != "":
			f.Sort = ports.SortRelevance
		default:
			f.Sort = ports.SortCreatedAt
		}
	}
	switch q.Order {
	case "asc":
		f.Desc = false
	case "desc":
		f.Desc = true
	default:
		f.Desc = f.Sort != ports.SortPosition
	}
	key := totalKey(f)
	cached, gen, fresh := s.totals.get(key)
	page, err := s.products.List(ctx, f)
	if err != nil {
		return nil, 0, err
	}
	var total int64
	switch n := len(page); {
	case f.Limit > 0 && (n > 0 && n < f.Limit || n == 0 && f.Offset == 0):
		// A page that is neither full nor past the end tells the total exactly.
		total = int64(f.Offset + n)
		s.totals.put(key, gen, total)
	case fresh:
		total = cached
	default:
		if total, err = s.products.Count(ctx, f); err != nil {
			return nil, 0, err
		}
		s.totals.put(key, gen, total)
	}
	return mapAll(page, func(p ports.ListedProduct) api.ProductSummary { return toSummary(p.Product, p.ImageURL) }), total, nil
}

// totalKey is the totals cache key of a list filter: the filter without its order and
// page (a manual collection by id, a smart one by its rules too).
func totalKey(f ports.ProductFilter) string {
	var col any
	if c := f.Collection; c != nil {
		col = []any{c.ID, c.CollectionType, c.Rules}
	}
	f.Collection, f.Sort, f.Desc, f.Offset, f.Limit = nil, "", false, 0, 0
	// Marshalling a struct of strings, numbers, times and decimals cannot fail.
	b, _ := json.Marshal(struct {
		F ports.ProductFilter
		C any
	}{f, col})
	return string(b)
}

// variantsOf lists a product's variants, default first.
func (s *Service) variantsOf(ctx context.Context, productID string) ([]*domain.Variant, error) {
	m, err := s.variants.ListByProducts(ctx, []string{productID})
	if err != nil {
		return nil, err
	}
	return m[productID], nil
}

// stockEvents publishes product.inventory_changed when the total moved, then
// product.out_of_stock when it moved from above zero to zero or below, or else
// product.low_stock when it moved from at or above the threshold to strictly below it
// (and above zero): the spec's "stock below threshold" (decision 0029).
func (s *Service) stockEvents(ctx context.Context, before, after, threshold int, res api.ProductResource) error {
	if before == after {
		return nil
	}
	if err := s.publish(ctx, api.EventProductInventoryChanged, res.ID, res); err != nil {
		return err
	}
	switch {
	case after <= 0 && before > 0:
		return s.publish(ctx, api.EventProductOutOfStock, res.ID, res)
	case after > 0 && after < threshold && before >= threshold:
		return s.publish(ctx, api.EventProductLowStock, res.ID, res)
	}
	return nil
}

// removeFiles deletes stored image files after their records are gone; a failure is
// logged, never returned (the records are the truth).
func (s *Service) removeFiles(ctx context.Context, keys []string) {
	for _, k := range keys {
		if err := s.storage.Delete(context.WithoutCancel(ctx), k); err != nil {
			s.log.Warn("image file not removed", zap.String("key", k), zap.Error(err))
		}
	}
}
