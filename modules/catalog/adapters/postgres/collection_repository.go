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

// CollectionRepository implements ports.CollectionRepository on collections and
// collection_products.
type CollectionRepository struct {
	db *db.DB
}

var _ ports.CollectionRepository = (*CollectionRepository)(nil)

// NewCollectionRepository builds the repository.
func NewCollectionRepository(d *db.DB) *CollectionRepository { return &CollectionRepository{db: d} }

// Create inserts a collection.
func (r *CollectionRepository) Create(ctx context.Context, c *domain.Collection) error {
	row := fromCollection(c)
	if err := r.db.Conn(ctx).Create(&row).Error; err != nil {
		if db.IsDuplicate(err) {
			return domain.ErrCollectionSlugTaken
		}
		return fmt.Errorf("catalog: insert collection: %w", err)
	}
	return nil
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
	if err := r.db.Conn(ctx).Where("id = ?", id).Delete(&collectionRow{}).Error; err != nil {
		return fmt.Errorf("catalog: delete collection: %w", err)
	}
	return nil
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
	var rows []collectionRow
	if err := conn.Where(where, arg).Limit(1).Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("catalog: select collection: %w", err)
	}
	if len(rows) == 0 {
		return nil, domain.ErrCollectionNotFound
	}
	return rows[0].toDomain(), nil
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
	q = q.Session(&gorm.Session{})
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, fmt.Errorf("catalog: count collections: %w", err)
	}
	dir := "ASC"
	if f.Desc {
		dir = "DESC"
	}
	col := map[string]string{"title": "title", "updated_at": "updated_at"}[f.Sort]
	if col == "" {
		col = "created_at"
	}
	var rows []collectionRow
	if err := q.Order(col + " " + dir).Order("id " + dir).Offset(f.Offset).Limit(f.Limit).Find(&rows).Error; err != nil {
		return nil, 0, fmt.Errorf("catalog: list collections: %w", err)
	}
	return toCollections(rows), total, nil
}

func toCollections(rows []collectionRow) []*domain.Collection {
	out := make([]*domain.Collection, 0, len(rows))
	for _, row := range rows {
		out = append(out, row.toDomain())
	}
	return out
}

// ListSmart returns every smart collection.
func (r *CollectionRepository) ListSmart(ctx context.Context) ([]*domain.Collection, error) {
	var rows []collectionRow
	if err := r.db.Conn(ctx).Where("collection_type = ?", domain.CollectionSmart).Order("title ASC").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("catalog: list smart collections: %w", err)
	}
	return toCollections(rows), nil
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
		" JOIN collection_products cp ON cp.collection_id = collections.id WHERE cp.product_id IN (" + params(len(productIDs)) + ")" +
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
	if err := r.db.Conn(ctx).Create(&row).Error; err != nil {
		if db.IsDuplicate(err) {
			return domain.ErrProductInCollection
		}
		return fmt.Errorf("catalog: insert membership: %w", err)
	}
	return nil
}

// GetMembership loads a membership.
func (r *CollectionRepository) GetMembership(ctx context.Context, collectionID, productID string) (*domain.Membership, error) {
	var rows []membershipRow
	if err := r.db.Conn(ctx).Where("collection_id = ? AND product_id = ?", collectionID, productID).Limit(1).Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("catalog: select membership: %w", err)
	}
	if len(rows) == 0 {
		return nil, domain.ErrProductNotFound.WithMessage("Product is not in this collection")
	}
	return rows[0].toDomain(), nil
}

// RemoveProduct deletes a membership.
func (r *CollectionRepository) RemoveProduct(ctx context.Context, collectionID, productID string) error {
	if err := r.db.Conn(ctx).Where("collection_id = ? AND product_id = ?", collectionID, productID).Delete(&membershipRow{}).Error; err != nil {
		return fmt.Errorf("catalog: delete membership: %w", err)
	}
	return nil
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
	err := r.db.Conn(ctx).Model(&membershipRow{}).Where("collection_id = ? AND position >= ?", collectionID, from).
		Update("position", gorm.Expr("position + ?", delta)).Error
	if err != nil {
		return fmt.Errorf("catalog: shift members: %w", err)
	}
	return nil
}
