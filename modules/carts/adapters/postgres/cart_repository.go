package postgres

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/gocommerce/commerce/modules/carts/domain"
	"github.com/gocommerce/commerce/modules/carts/ports"
	"github.com/gocommerce/commerce/platform/db"
)

// CartRepository implements ports.CartRepository on the carts and cart_items tables.
type CartRepository struct {
	db *db.DB
}

var _ ports.CartRepository = (*CartRepository)(nil)

// NewCartRepository builds the repository.
func NewCartRepository(d *db.DB) *CartRepository { return &CartRepository{db: d} }

// Create inserts a cart with its items. The insert does nothing on a conflict (so the
// caller's transaction stays usable on PostgreSQL); a customer's second active cart
// is then ports.ErrActiveCartExists.
func (r *CartRepository) Create(ctx context.Context, c *domain.Cart) error {
	row, err := fromCart(c)
	if err != nil {
		return err
	}
	conn := r.db.Conn(ctx)
	res := conn.Clauses(clause.OnConflict{DoNothing: true}).Create(&row)
	if res.Error != nil {
		return fmt.Errorf("carts: insert: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		if c.CustomerID != "" {
			return ports.ErrActiveCartExists
		}
		return fmt.Errorf("carts: insert %s: conflict", c.ID)
	}
	if len(c.Items) == 0 {
		return nil
	}
	items := make([]itemRow, len(c.Items))
	for i, it := range c.Items {
		items[i] = fromItem(c.ID, it)
	}
	if err := conn.Create(&items).Error; err != nil {
		return fmt.Errorf("carts: insert items: %w", err)
	}
	return nil
}

// load reads one cart (by the query) and its items, oldest first.
func (r *CartRepository) load(conn, q *gorm.DB) (*domain.Cart, error) {
	var rows []cartRow
	if err := q.Limit(1).Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("carts: select: %w", err)
	}
	if len(rows) == 0 {
		return nil, domain.ErrCartNotFound
	}
	var items []itemRow
	if err := conn.Where("cart_id = ?", rows[0].ID).Order("created_at, id").Find(&items).Error; err != nil {
		return nil, fmt.Errorf("carts: items: %w", err)
	}
	return rows[0].toDomain(items)
}

// Get returns a cart with its items.
func (r *CartRepository) Get(ctx context.Context, id domain.CartID) (*domain.Cart, error) {
	conn := r.db.Conn(ctx)
	return r.load(conn, conn.Where("id = ?", string(id)))
}

// FindBySessionHash returns the guest cart with the token hash.
func (r *CartRepository) FindBySessionHash(ctx context.Context, hash string) (*domain.Cart, error) {
	conn := r.db.Conn(ctx)
	return r.load(conn, conn.Where("session_token_hash = ?", hash))
}

// ActiveForCustomer returns the customer's active cart.
func (r *CartRepository) ActiveForCustomer(ctx context.Context, customerID string) (*domain.Cart, error) {
	conn := r.db.Conn(ctx)
	return r.load(conn, conn.Where("customer_id = ? AND status = ?", customerID, string(domain.StatusActive)))
}

// Update loads the cart row-locked, applies change and writes the cart row and the
// item differences: removed items first, then changed ones, then new ones (so the
// identity index never sees two identical lines).
func (r *CartRepository) Update(ctx context.Context, id domain.CartID, change func(*domain.Cart) error) (*domain.Cart, error) {
	conn := r.db.Conn(ctx)
	c, err := r.load(conn, conn.Clauses(clause.Locking{Strength: "UPDATE"}).Where("id = ?", string(id)))
	if err != nil {
		return nil, err
	}
	before := make(map[domain.ItemID]itemRow, len(c.Items))
	for _, it := range c.Items {
		before[it.ID] = fromItem(c.ID, it)
	}
	if err := change(c); err != nil {
		return nil, err
	}
	row, err := fromCart(c)
	if err != nil {
		return nil, err
	}
	if err := conn.Model(&cartRow{}).Where("id = ?", string(id)).Select("*").Omit("id", "created_at").Updates(&row).Error; err != nil {
		return nil, fmt.Errorf("carts: update: %w", err)
	}
	after := make(map[domain.ItemID]bool, len(c.Items))
	var changed, added []itemRow
	for _, it := range c.Items {
		after[it.ID] = true
		nr := fromItem(c.ID, it)
		old, ok := before[it.ID]
		switch {
		case !ok:
			added = append(added, nr)
		case !old.same(nr):
			changed = append(changed, nr)
		}
	}
	var removed []string
	for id := range before {
		if !after[id] {
			removed = append(removed, string(id))
		}
	}
	if len(removed) > 0 {
		if err := conn.Where("id IN ?", removed).Delete(&itemRow{}).Error; err != nil {
			return nil, fmt.Errorf("carts: delete items: %w", err)
		}
	}
	for i := range changed {
		err := conn.Model(&itemRow{}).Where("id = ?", changed[i].ID).Select("*").Omit("id", "cart_id", "created_at").Updates(&changed[i]).Error
		if err != nil {
			return nil, fmt.Errorf("carts: update item: %w", err)
		}
	}
	if len(added) > 0 {
		if err := conn.Create(&added).Error; err != nil {
			return nil, fmt.Errorf("carts: insert items: %w", err)
		}
	}
	return c, nil
}

// Delete removes a cart and its items.
func (r *CartRepository) Delete(ctx context.Context, id domain.CartID) error {
	conn := r.db.Conn(ctx)
	if err := conn.Where("cart_id = ?", string(id)).Delete(&itemRow{}).Error; err != nil {
		return fmt.Errorf("carts: delete items: %w", err)
	}
	if err := conn.Where("id = ?", string(id)).Delete(&cartRow{}).Error; err != nil {
		return fmt.Errorf("carts: delete: %w", err)
	}
	return nil
}

// ExpireInactive marks active carts past expires_at expired.
func (r *CartRepository) ExpireInactive(ctx context.Context, now time.Time) (int64, error) {
	res := r.db.Conn(ctx).Model(&cartRow{}).Where("status = ? AND expires_at <= ?", string(domain.StatusActive), now.UTC()).
		Updates(map[string]any{"status": string(domain.StatusExpired), "updated_at": now.UTC()})
	if res.Error != nil {
		return 0, fmt.Errorf("carts: expire: %w", res.Error)
	}
	return res.RowsAffected, nil
}

// ForCustomer returns the customer's carts, newest first.
func (r *CartRepository) ForCustomer(ctx context.Context, customerID string) ([]*domain.Cart, error) {
	conn := r.db.Conn(ctx)
	var rows []cartRow
	if err := conn.Where("customer_id = ?", customerID).Order("created_at DESC, id DESC").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("carts: select: %w", err)
	}
	out := make([]*domain.Cart, 0, len(rows))
	for _, row := range rows {
		var items []itemRow
		if err := conn.Where("cart_id = ?", row.ID).Order("created_at, id").Find(&items).Error; err != nil {
			return nil, fmt.Errorf("carts: items: %w", err)
		}
		c, err := row.toDomain(items)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}
