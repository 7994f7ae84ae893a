package app

import (
	"context"
	"errors"

	"github.com/gocommerce/commerce/modules/catalog/api"
	"github.com/gocommerce/commerce/modules/catalog/domain"
	"github.com/gocommerce/commerce/modules/catalog/ports"
	"github.com/gocommerce/commerce/platform/ids"
)

// ListCollectionsQuery is a collection list request.
type ListCollectionsQuery struct {
	ports.CollectionFilter
	// ActiveOnly hides inactive collections (readers without collections:write).
	ActiveOnly bool
}

// ListCollections returns a page of collections and the total.
func (s *Service) ListCollections(ctx context.Context, q ListCollectionsQuery) ([]api.CollectionResource, int64, error) {
	f := q.CollectionFilter
	if q.ActiveOnly {
		if f.IsActive != nil && !*f.IsActive {
			return []api.CollectionResource{}, 0, nil
		}
		t := true
		f.IsActive = &t
	}
	cs, total, err := s.collections.List(ctx, f)
	if err != nil {
		return nil, 0, err
	}
	return mapAll(cs, toCollectionResource), total, nil
}

// GetCollection reads a collection by id, or by slug when no collection has that id.
func (s *Service) GetCollection(ctx context.Context, idOrSlug string, activeOnly bool) (api.CollectionResource, error) {
	c, err := s.findCollection(ctx, idOrSlug, activeOnly)
	if err != nil {
		return api.CollectionResource{}, err
	}
	return toCollectionResource(c), nil
}

func (s *Service) findCollection(ctx context.Context, idOrSlug string, activeOnly bool) (*domain.Collection, error) {
	c, err := findByIDOrSlug(ctx, idOrSlug, domain.ErrCollectionNotFound, s.collections.Get, s.collections.GetBySlug)
	if err != nil {
		return nil, err
	}
	if activeOnly && !c.IsActive {
		return nil, domain.ErrCollectionNotFound
	}
	return c, nil
}

// CreateCollection stores a collection (slug rules as for products, with
// COLLECTION_SLUG_TAKEN). Event collection.created.
func (s *Service) CreateCollection(ctx context.Context, in domain.CollectionInput) (api.CollectionResource, error) {
	c, err := domain.NewCollection(s.newID(), in, s.clock.Now())
	if err != nil {
		return api.CollectionResource{}, err
	}
	var out api.CollectionResource
	err = s.createWithSlug(ctx, s.writeCollectionTx, slugRule{
		generated: !in.Slug.Set, title: c.Title, kind: "collection", slug: &c.Slug,
		like: s.collections.SlugsLike, taken: domain.ErrCollectionSlugTaken,
	}, func(ctx context.Context) error {
		if err := s.collections.Create(ctx, c); err != nil {
			return err
		}
		out = toCollectionResource(c)
		return s.publish(ctx, api.EventCollectionCreated, c.ID, out)
	})
	return result(out, err)
}

// UpdateCollection changes the present fields. Event collection.updated.
func (s *Service) UpdateCollection(ctx context.Context, id string, in domain.CollectionInput) (api.CollectionResource, error) {
	var out api.CollectionResource
	err := s.writeCollectionTx(ctx, func(ctx context.Context) error {
		c, err := s.lockCollection(ctx, id)
		if err != nil {
			return err
		}
		if err := c.Apply(in, s.clock.Now()); err != nil {
			return err
		}
		if err := s.collections.Update(ctx, c); err != nil {
			return err
		}
		out = toCollectionResource(c)
		return s.publish(ctx, api.EventCollectionUpdated, c.ID, out)
	})
	return result(out, err)
}

// DeleteCollection removes a collection and its memberships (the products stay).
// Event collection.deleted.
func (s *Service) DeleteCollection(ctx context.Context, id string) error {
	return s.writeCollectionTx(ctx, func(ctx context.Context) error {
		c, err := s.lockCollection(ctx, id)
		if err != nil {
			return err
		}
		if err := s.collections.Delete(ctx, c.ID); err != nil {
			return err
		}
		return s.publish(ctx, api.EventCollectionDeleted, c.ID, toCollectionResource(c))
	})
}

// AddProductToCollection puts a product in a manual collection at a 1-based position
// (0 or past the end: last); members at and after it move down one place. A smart
// collection refuses (its rules choose). Event collection.product_added.
func (s *Service) AddProductToCollection(ctx context.Context, collectionID, productID string, position int) (api.CollectionProduct, error) {
	var out api.CollectionProduct
	err := s.writeTx(ctx, func(ctx context.Context) error {
		c, err := s.lockManualCollection(ctx, collectionID)
		if err != nil {
			return err
		}
		if !ids.Valid(productID) {
			return domain.ErrProductNotFound
		}
		p, err := s.products.Get(ctx, productID)
		if err != nil {
			return err
		}
		if _, err := s.collections.GetMembership(ctx, c.ID, p.ID); err == nil {
			return domain.ErrProductInCollection
		} else if !errors.Is(err, domain.ErrProductNotFound) {
			return err
		}
		n, err := s.collections.CountProducts(ctx, c.ID)
		if err != nil {
			return err
		}
		m := &domain.Membership{CollectionID: c.ID, ProductID: p.ID, Position: domain.ClampPosition(position, n), CreatedAt: s.clock.Now()}
		if m.Position <= n {
			if err := s.collections.ShiftProducts(ctx, c.ID, m.Position, 1); err != nil {
				return err
			}
		}
		if err := s.collections.AddProduct(ctx, m); err != nil {
			return err
		}
		out = toMembershipResource(m)
		return s.publish(ctx, api.EventCollectionProductAdded, c.ID, out)
	})
	return result(out, err)
}

// RemoveProductFromCollection takes a product out of a manual collection (the members
// after it move up). PRODUCT_NOT_FOUND when it is not a member. Event
// collection.product_removed.
func (s *Service) RemoveProductFromCollection(ctx context.Context, collectionID, productID string) error {
	return s.writeTx(ctx, func(ctx context.Context) error {
		c, err := s.lockManualCollection(ctx, collectionID)
		if err != nil {
			return err
		}
		if !ids.Valid(productID) {
			return domain.ErrProductNotFound.WithMessage("Product is not in this collection")
		}
		m, err := s.collections.GetMembership(ctx, c.ID, productID)
		if err != nil {
			return err
		}
		if err := s.collections.RemoveProduct(ctx, c.ID, productID); err != nil {
			return err
		}
		if err := s.collections.ShiftProducts(ctx, c.ID, m.Position+1, -1); err != nil {
			return err
		}
		return s.publish(ctx, api.EventCollectionProductRemoved, c.ID, toMembershipResource(m))
	})
}

// collectionsOf lists the collections a product belongs to: its manual memberships and
// the smart collections whose rules it meets.
func (s *Service) collectionsOf(ctx context.Context, p *domain.Product, activeOnly bool) ([]*domain.Collection, error) {
	manual, err := s.collections.ListForProducts(ctx, []string{p.ID})
	if err != nil {
		return nil, err
	}
	smart, err := s.smartCollections(ctx)
	if err != nil {
		return nil, err
	}
	return memberOf(p, manual[p.ID], smart, activeOnly), nil
}

// memberOf filters a product's manual collections (by activeOnly) and adds the smart
// collections whose rules it meets.
func memberOf(p *domain.Product, manual, smart []*domain.Collection, activeOnly bool) []*domain.Collection {
	out := make([]*domain.Collection, 0, len(manual))
	for _, c := range manual {
		if !activeOnly || c.IsActive {
			out = append(out, c)
		}
	}
	for _, c := range smart {
		if (!activeOnly || c.IsActive) && c.Matches(p) {
			out = append(out, c)
		}
	}
	return out
}

// smartCollections lists every smart collection, from the cache when it is fresh (the
// list is small and rarely changes, and coupons read it on every cart change). The
// collections returned are shared: read-only.
func (s *Service) smartCollections(ctx context.Context) ([]*domain.Collection, error) {
	cs, gen, ok := s.smart.get("")
	if ok {
		return cs, nil
	}
	cs, err := s.collections.ListSmart(ctx)
	if err != nil {
		return nil, err
	}
	s.smart.put("", gen, cs)
	return cs, nil
}

// writeCollectionTx is writeTx for a write to collections themselves (not their
// memberships): it also drops the cached smart collections.
func (s *Service) writeCollectionTx(ctx context.Context, fn func(ctx context.Context) error) error {
	return s.writeTx(ctx, func(ctx context.Context) error {
		s.tx.AfterCommit(ctx, s.smart.invalidate)
		return fn(ctx)
	})
}

// lockCollection locks the collection with the given id (COLLECTION_NOT_FOUND for one
// that is not an id).
func (s *Service) lockCollection(ctx context.Context, id string) (*domain.Collection, error) {
	if !ids.Valid(id) {
		return nil, domain.ErrCollectionNotFound
	}
	return s.collections.GetForUpdate(ctx, id)
}

// lockManualCollection is lockCollection for a change of members: a smart collection
// refuses it (SMART_COLLECTION_MANUAL; its rules choose).
func (s *Service) lockManualCollection(ctx context.Context, id string) (*domain.Collection, error) {
	c, err := s.lockCollection(ctx, id)
	if err != nil {
		return nil, err
	}
	if c.CollectionType == domain.CollectionSmart {
		return nil, domain.ErrSmartCollectionManual
	}
	return c, nil
}
