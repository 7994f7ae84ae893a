package postgres

import (
	"context"
	"fmt"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/gocommerce/commerce/modules/catalog/domain"
	"github.com/gocommerce/commerce/modules/catalog/ports"
	"github.com/gocommerce/commerce/platform/db"
)

// Create inserts a collection.
func (r *CollectionRepository) Create(ctx context.Context, c *domain.Collection) error {
	row := fromCollection(c)
	return db.Insert(r.db.Conn(ctx), &row, domain.ErrCollectionSlugTaken, "catalog: insert collection")
}

// Update saves a collection.
func (r *CollectionRepository) Update(ctx context.Context, c *domain.Collection) error {
	row := fromCollection(c)
	if err := r.db.Conn(ctx).Model(&row).Select("*").Updates(&row).Error; err != nil {
		if db.IsDuplicate(err) {
			return domain.ErrCollectionSlugTaken
		}
		return fmt.Errorf("catalog: update collection: %w", err)
	}
	return nil
}

// Delete removes a collection; memberships cascade.
func (r *CollectionRepository) Delete(ctx context.Context, id string) error {
	return db.Done(r.db.Conn(ctx).Where("id = ?", id).Delete(&collectionRow{}), "catalog: delete collection")
}

// Get loads a collection.
func (r *CollectionRepository) Get(ctx context.Context, id string) (*domain.Collection, error) {
	return r.first(r.db.Conn(ctx), "id = ?", id)
}

// GetForUpdate loads and locks a collection (Postgres).
func (r *CollectionRepository) GetForUpdate(ctx context.Context, id string) (*domain.Collection, error) {
	return r.first(r.db.Conn(ctx).Clauses(clause.Locking{Strength: "UPDATE"}), "id = ?", id)
}

// GetBySlug loads a collection by slug.
func (r *CollectionRepository) GetBySlug(ctx context.Context, slug string) (*domain.Collection, error) {
	return r.first(r.db.Conn(ctx), "slug = ?", slug)
}

func (r *CollectionRepository) first(conn *gorm.DB, where string, arg any) (*domain.Collection, error) {
	return db.FirstAs(conn.Where(where, arg), collectionRow.toDomain, domain.ErrCollectionNotFound, "catalog: select collection")
}

// SlugsLike lists the collection slugs equal to base or starting with base-.
func (r *CollectionRepository) SlugsLike(ctx context.Context, base string) ([]string, error) {
	return slugsLike(r.db.Conn(ctx), "collections", base)
}

// List returns a page of collections.
func (r *CollectionRepository) List(ctx context.Context, f ports.CollectionFilter) ([]*domain.Collection, int64, error) {
	q := r.db.Conn(ctx).Model(&collectionRow{})
	if f.IsActive != nil {
		q = q.Where("is_active = ?", *f.IsActive)
	}
	if f.CollectionType != "" {
		q = q.Where("collection_type = ?", f.CollectionType)
	}
	dir := "ASC"
	if f.Desc {
		dir = "DESC"
	}
	col := map[string]string{"title": "title", "updated_at": "updated_at"}[f.Sort]
	if col == "" {
		col = "created_at"
	}
	rows, total, err := db.Page[collectionRow](q.Session(&gorm.Session{}), col+" "+dir+", id "+dir, f.Offset, f.Limit,
		"catalog: count collections", "catalog: list collections")
	return db.Map(rows, collectionRow.toDomain), total, err
}

// ListSmart returns every smart collection.
func (r *CollectionRepository) ListSmart(ctx context.Context) ([]*domain.Collection, error) {
	return db.FindAs(r.db.Conn(ctx).Where("collection_type = ?", domain.CollectionSmart).Order("title ASC"), collectionRow.toDomain, "catalog: list smart collections")
}

// ListForProducts returns the manual collections of each product in one query.
func (r *CollectionRepository) ListForProducts(ctx context.Context, productIDs []string) (map[string][]*domain.Collection, error) {
	out := make(map[string][]*domain.Collection, len(productIDs))
	if len(productIDs) == 0 {
		return out, nil
	}
	var (
		row       collectionRow
		productID string
	)
	query := r.db.Rebind("SELECT " + collectionColumns + ", cp.product_id FROM collections" +
		" JOIN collection_products cp ON cp.collection_id = collections.id WHERE cp.product_id IN (" + db.Params(len(productIDs)) + ")" +
		" ORDER BY collections.title ASC, collections.id ASC")
	if err := r.db.Query(ctx, query, anySlice(productIDs), append(row.dest(), &productID), func() error {
		out[productID] = append(out[productID], row.toDomain())
		return nil
	}); err != nil {
		return nil, fmt.Errorf("catalog: product collections: %w", err)
	}
	return out, nil
}

// AddProduct inserts a membership.
func (r *CollectionRepository) AddProduct(ctx context.Context, m *domain.Membership) error {
	row := membershipRow{CollectionID: m.CollectionID, ProductID: m.ProductID, Position: m.Position, CreatedAt: m.CreatedAt.UTC()}
	return db.Insert(r.db.Conn(ctx), &row, domain.ErrProductInCollection, "catalog: insert membership")
}

// GetMembership loads a membership.
func (r *CollectionRepository) GetMembership(ctx context.Context, collectionID, productID string) (*domain.Membership, error) {
	q := r.db.Conn(ctx).Where("collection_id = ? AND product_id = ?", collectionID, productID)
	return db.FirstAs(q, membershipRow.toDomain, domain.ErrProductNotFound.WithMessage("Product is not in this collection"), "catalog: select membership")
}

// RemoveProduct deletes a membership.
func (r *CollectionRepository) RemoveProduct(ctx context.Context, collectionID, productID string) error {
	return db.Done(r.db.Conn(ctx).Where("collection_id = ? AND product_id = ?", collectionID, productID).Delete(&membershipRow{}), "catalog: delete membership")
}

// CountProducts counts a collection's members.
func (r *CollectionRepository) CountProducts(ctx context.Context, collectionID string) (int, error) {
	var n int64
	if err := r.db.Conn(ctx).Model(&membershipRow{}).Where("collection_id = ?", collectionID).Count(&n).Error; err != nil {
		return 0, fmt.Errorf("catalog: count members: %w", err)
	}
	return int(n), nil
}

// ShiftProducts moves member positions >= from by delta.
func (r *CollectionRepository) ShiftProducts(ctx context.Context, collectionID string, from, delta int) error {
	return db.Done(r.db.Conn(ctx).Model(&membershipRow{}).Where("collection_id = ? AND position >= ?", collectionID, from).
		Update("position", gorm.Expr("position + ?", delta)), "catalog: shift members")
}
