package app

import (
	"context"
	"slices"
	"strings"

	"github.com/gocommerce/commerce/modules/catalog/api"
	"github.com/gocommerce/commerce/modules/catalog/domain"
	"github.com/gocommerce/commerce/modules/catalog/ports"
	"github.com/gocommerce/commerce/platform/ids"
)

// GetProduct returns a product with its variants (default first) for other modules,
// whatever its status.
func (s *Service) GetProduct(ctx context.Context, id string) (api.Product, error) {
	ps, err := s.GetProducts(ctx, []string{id})
	if err != nil {
		return api.Product{}, err
	}
	if len(ps) == 0 {
		return api.Product{}, domain.ErrProductNotFound
	}
	return ps[0], nil
}

// GetProducts returns the products found among ids in the order of ids (one statement
// whatever the number of ids).
func (s *Service) GetProducts(ctx context.Context, idList []string) ([]api.Product, error) {
	valid := validIDs(idList)
	if len(valid) == 0 {
		return []api.Product{}, nil
	}
	found, err := s.products.GetWithVariants(ctx, valid)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]ports.ProductWithVariants, len(found))
	for _, p := range found {
		byID[p.Product.ID] = p
	}
	out := make([]api.Product, 0, len(found))
	for _, id := range valid {
		if p, ok := byID[id]; ok {
			out = append(out, toAPIProduct(p.Product, p.Variants, p.ImageURL))
		}
	}
	return out, nil
}

// GetSaleVariants returns the variants of the products found among idList with what
// a sale needs of them (one statement, no descriptions, images or options).
func (s *Service) GetSaleVariants(ctx context.Context, idList []string) ([]api.SaleVariant, error) {
	valid := validIDs(idList)
	if len(valid) == 0 {
		return []api.SaleVariant{}, nil
	}
	return s.products.SaleVariants(ctx, valid)
}

// validIDs is idList without malformed ids and repeats, in order.
func validIDs(idList []string) []string {
	valid := make([]string, 0, len(idList))
	for _, id := range idList {
		if ids.Valid(id) && !slices.Contains(valid, id) {
			valid = append(valid, id)
		}
	}
	return valid
}

// GetVariant returns a variant of a product, or its default variant when variantID is
// "" (VARIANT_NOT_FOUND when the product has explicit variants: the caller must choose).
func (s *Service) GetVariant(ctx context.Context, productID, variantID string) (api.Variant, error) {
	if !ids.Valid(productID) {
		return api.Variant{}, domain.ErrProductNotFound
	}
	if variantID == "" {
		found, err := s.products.GetWithVariants(ctx, []string{productID})
		if err != nil {
			return api.Variant{}, err
		}
		if len(found) == 0 {
			return api.Variant{}, domain.ErrProductNotFound
		}
		p, vs := found[0].Product, found[0].Variants
		if p.HasVariants || len(vs) == 0 || !vs[0].IsDefault {
			return api.Variant{}, domain.ErrVariantNotFound.WithMessage("variant_id is required: the product has variants")
		}
		return toAPIVariant(vs[0]), nil
	}
	if !ids.Valid(variantID) {
		return api.Variant{}, domain.ErrVariantNotFound
	}
	v, err := s.variants.Get(ctx, productID, variantID)
	if err != nil {
		if _, perr := s.products.Get(ctx, productID); perr != nil {
			return api.Variant{}, perr
		}
		return api.Variant{}, err
	}
	return toAPIVariant(v), nil
}

// GetProductVariant returns a product with only the variant asked for (the default
// variant when variantID is ""), in one read: ErrProductNotFound, or ErrVariantNotFound
// (also when variantID is "" and the product has explicit variants).
func (s *Service) GetProductVariant(ctx context.Context, productID, variantID string) (api.Product, error) {
	// Ids are stored in canonical (lower-case) form.
	productID, variantID = strings.ToLower(productID), strings.ToLower(variantID)
	if !ids.Valid(productID) {
		return api.Product{}, domain.ErrProductNotFound
	}
	if variantID != "" && !ids.Valid(variantID) {
		if _, err := s.products.Get(ctx, productID); err != nil {
			return api.Product{}, err
		}
		return api.Product{}, domain.ErrVariantNotFound
	}
	found, err := s.products.GetWithVariant(ctx, productID, variantID)
	if err != nil {
		return api.Product{}, err
	}
	if variantID == "" && found.Product.HasVariants {
		return api.Product{}, domain.ErrVariantNotFound.WithMessage("variant_id is required: the product has variants")
	}
	if len(found.Variants) == 0 {
		return api.Product{}, domain.ErrVariantNotFound
	}
	return toAPIProduct(found.Product, found.Variants, found.ImageURL), nil
}

// FindVariant returns the product a variant belongs to with only that variant in
// Variants, in one read, for callers that know the variant but not its product:
// ErrVariantNotFound for an unknown (or malformed) id.
func (s *Service) FindVariant(ctx context.Context, variantID string) (api.Product, error) {
	// Ids are stored in canonical (lower-case) form.
	variantID = strings.ToLower(variantID)
	if !ids.Valid(variantID) {
		return api.Product{}, domain.ErrVariantNotFound
	}
	found, err := s.products.GetByVariant(ctx, variantID)
	if err != nil {
		return api.Product{}, err
	}
	return toAPIProduct(found.Product, found.Variants, found.ImageURL), nil
}

// SetInventoryQuantities records variant stock totals in the caller's transaction and
// recomputes each product's total as the sum of its variants'. Products are locked in
// id order (no deadlock between two callers). Unknown products and variants are
// skipped. A product whose total moved publishes product.inventory_changed, and
// product.out_of_stock / product.low_stock on the crossings. It sends four statements
// whatever the number of variants (lock, variants, product totals, and the variants of
// the products whose total moved, for their events).
func (s *Service) SetInventoryQuantities(ctx context.Context, qs []api.InventoryQuantity) error {
	var pids []string
	vqs := make([]ports.VariantQuantity, 0, len(qs))
	for _, q := range qs {
		if ids.Valid(q.ProductID) && ids.Valid(q.VariantID) {
			vqs = append(vqs, ports.VariantQuantity{ProductID: q.ProductID, VariantID: q.VariantID, Quantity: q.Quantity})
			if !slices.Contains(pids, q.ProductID) {
				pids = append(pids, q.ProductID)
			}
		}
	}
	if len(pids) == 0 {
		return nil
	}
	slices.Sort(pids)
	return s.writeTx(ctx, func(ctx context.Context) error {
		locked, err := s.products.LockMany(ctx, pids)
		if err != nil || len(locked) == 0 {
			return err
		}
		if err := s.variants.SetQuantities(ctx, vqs); err != nil {
			return err
		}
		lockedIDs := make([]string, len(locked))
		for i, p := range locked {
			lockedIDs[i] = p.ID
		}
		sums, err := s.products.SumInventoryQuantities(ctx, lockedIDs)
		if err != nil {
			return err
		}
		var changed []*domain.Product
		before := map[string]int{}
		for _, p := range locked {
			t := sums[p.ID]
			if t > domain.MaxInventoryQuantity || t < -domain.MaxInventoryQuantity {
				return domain.ErrStockLimit // the transaction rolls back
			}
			if t != p.InventoryQuantity {
				before[p.ID], p.InventoryQuantity = p.InventoryQuantity, t
				changed = append(changed, p)
			}
		}
		if len(changed) == 0 {
			return nil
		}
		// The caller's transaction commits after this returns: its commit drops the
		// list totals (inventory_status filters, stock rules).
		s.tx.AfterCommit(ctx, s.totals.invalidate)
		cids := make([]string, 0, len(changed))
		for _, p := range changed {
			cids = append(cids, p.ID)
		}
		vs, err := s.variants.ListByProducts(ctx, cids)
		if err != nil {
			return err
		}
		for _, p := range changed {
			if err := s.stockEvents(ctx, before[p.ID], p.InventoryQuantity, p.LowStockThreshold, withVariants(p, vs[p.ID])); err != nil {
				return err
			}
		}
		return nil
	})
}

// ProductCollections returns the active collections of each product (manual
// memberships and smart collections whose rules it meets); unknown ids are omitted. It
// sends two statements whatever the number of products (the products, their manual
// memberships); the smart collections come from a short-lived cache.
func (s *Service) ProductCollections(ctx context.Context, productIDs []string) (map[string][]string, error) {
	valid := validIDs(productIDs)
	out := make(map[string][]string, len(valid))
	if len(valid) == 0 {
		return out, nil
	}
	ps, err := s.products.GetMany(ctx, valid)
	if err != nil {
		return nil, err
	}
	if len(ps) == 0 {
		return out, nil
	}
	found := make([]string, 0, len(ps))
	for _, p := range ps {
		found = append(found, p.ID)
	}
	manual, err := s.collections.ListForProducts(ctx, found)
	if err != nil {
		return nil, err
	}
	smart, err := s.smartCollections(ctx)
	if err != nil {
		return nil, err
	}
	for _, p := range ps {
		cols := memberOf(p, manual[p.ID], smart, true)
		list := make([]string, 0, len(cols))
		for _, c := range cols {
			list = append(list, c.ID)
		}
		out[p.ID] = list
	}
	return out, nil
}
