package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

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

// The SELECT lists, qualified with the aliases the queries use (c: carts, i: cart_items).
var (
	cartSelect = columns((&cartRow{}).fields(), "c")
	itemSelect = columns((&itemRow{}).fields(), "i")
)

// find reads the carts matching where (on carts c) with their items in one statement,
// carts in the order given, each cart's items oldest first. One statement is also one
// snapshot: the cart row and its items are consistent.
func find(ctx context.Context, d *db.DB, where, order string, args ...any) ([]*domain.Cart, error) {
	q := "SELECT " + cartSelect + ", " + itemSelect + " FROM carts c LEFT JOIN cart_items i ON i.cart_id = c.id WHERE " + where +
		" ORDER BY " + order + ", i.created_at, i.id"
	rows, err := d.Querier(ctx).QueryContext(ctx, d.Rebind(q), args...)
	if err != nil {
		return nil, fmt.Errorf("carts: select: %w", err)
	}
	defer func() { _ = rows.Close() }()
	var (
		out   []*domain.Cart
		cart  cartRow
		items []itemRow
	)
	flush := func() error {
		if cart.ID == "" {
			return nil
		}
		c, err := cart.toDomain(items)
		if err != nil {
			return err
		}
		out = append(out, c)
		return nil
	}
	for rows.Next() {
		var cr cartRow
		var ir itemRow
		if err := rows.Scan(append(pointers(cr.fields()), orNull(ir.fields())...)...); err != nil {
			return nil, fmt.Errorf("carts: scan: %w", err)
		}
		if cr.ID != cart.ID {
			if err := flush(); err != nil {
				return nil, err
			}
			cart, items = cr, nil
		}
		if ir.ID != "" {
			items = append(items, ir)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("carts: select: %w", err)
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return out, nil
}

// first is the first cart find returns, or domain.ErrCartNotFound.
func first(carts []*domain.Cart, err error) (*domain.Cart, error) {
	switch {
	case err != nil:
		return nil, err
	case len(carts) == 0:
		return nil, domain.ErrCartNotFound
	}
	return carts[0], nil
}

// Get returns a cart with its items.
func (r *CartRepository) Get(ctx context.Context, id domain.CartID) (*domain.Cart, error) {
	return first(find(ctx, r.db, "c.id = ?", "c.id", string(id)))
}

// FindBySessionHash returns the guest cart with the token hash.
func (r *CartRepository) FindBySessionHash(ctx context.Context, hash string) (*domain.Cart, error) {
	return first(find(ctx, r.db, "c.session_token_hash = ?", "c.id", hash))
}

// ActiveForCustomer returns the customer's active cart.
func (r *CartRepository) ActiveForCustomer(ctx context.Context, customerID string) (*domain.Cart, error) {
	return first(find(ctx, r.db, "c.customer_id = ? AND c.status = ?", "c.id", customerID, string(domain.StatusActive)))
}

// lock reads the cart row-locked (FOR UPDATE on PostgreSQL; SQLite transactions
// take the write lock when they begin), then its items. The items are read by a
// second statement on purpose: under READ COMMITTED a statement that waited for the
// lock sees the locked row's new version but the other tables as of its start, so a
// join would miss items a concurrent change just committed (docs/decisions/0088).
func (r *CartRepository) lock(ctx context.Context, id domain.CartID) (*domain.Cart, error) {
	q := "SELECT " + cartSelect + " FROM carts c WHERE c.id = ?"
	if r.db.Dialect() == db.Postgres {
		q += " FOR UPDATE"
	}
	var cart cartRow
	sqlc := r.db.Querier(ctx)
	if err := sqlc.QueryRowContext(ctx, r.db.Rebind(q), string(id)).Scan(pointers(cart.fields())...); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, domain.ErrCartNotFound
		}
		return nil, fmt.Errorf("carts: select: %w", err)
	}
	rows, err := sqlc.QueryContext(ctx, r.db.Rebind("SELECT "+itemSelect+" FROM cart_items i WHERE i.cart_id = ? ORDER BY i.created_at, i.id"), string(id))
	if err != nil {
		return nil, fmt.Errorf("carts: items: %w", err)
	}
	defer func() { _ = rows.Close() }()
	var items []itemRow
	for rows.Next() {
		var ir itemRow
		if err := rows.Scan(pointers(ir.fields())...); err != nil {
			return nil, fmt.Errorf("carts: scan item: %w", err)
		}
		items = append(items, ir)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("carts: items: %w", err)
	}
	return cart.toDomain(items)
}

// Columns an update never writes.
func cartUpdatable(column string) bool { return column != "id" && column != "created_at" }

func itemUpdatable(column string) bool {
	return column != "id" && column != "cart_id" && column != "created_at"
}

// Update loads the cart row-locked, applies change and writes what changed: the cart
// row's changed columns, then the item differences: removed items first, then the
// changed columns of changed ones, then new ones (so the identity index never sees
// two identical lines).
func (r *CartRepository) Update(ctx context.Context, id domain.CartID, change func(*domain.Cart) error) (*domain.Cart, error) {
	conn, sqlc := r.db.Conn(ctx), r.db.Querier(ctx)
	c, err := r.lock(ctx, id)
	if err != nil {
		return nil, err
	}
	before, err := fromCart(c)
	if err != nil {
		return nil, err
	}
	beforeItems := make(map[domain.ItemID]itemRow, len(c.Items))
	for _, it := range c.Items {
		beforeItems[it.ID] = fromItem(c.ID, it)
	}
	if err := change(c); err != nil {
		return nil, err
	}
	after, err := fromCart(c)
	if err != nil {
		return nil, err
	}
	if set := changes(before.fields(), after.fields(), cartUpdatable); len(set) > 0 {
		q, args := updateSQL("carts", string(id), set)
		if _, err := sqlc.ExecContext(ctx, r.db.Rebind(q), args...); err != nil {
			return nil, fmt.Errorf("carts: update: %w", err)
		}
	}
	kept := make(map[domain.ItemID]bool, len(c.Items))
	var added []itemRow
	type itemChange struct {
		id  string
		set []field
	}
	var changed []itemChange
	for _, it := range c.Items {
		kept[it.ID] = true
		nr := fromItem(c.ID, it)
		old, ok := beforeItems[it.ID]
		if !ok {
			added = append(added, nr)
			continue
		}
		if set := changes(old.fields(), nr.fields(), itemUpdatable); len(set) > 0 {
			changed = append(changed, itemChange{nr.ID, set})
		}
	}
	var removed []string
	for id := range beforeItems {
		if !kept[id] {
			removed = append(removed, string(id))
		}
	}
	if len(removed) > 0 {
		if err := conn.Where("id IN ?", removed).Delete(&itemRow{}).Error; err != nil {
			return nil, fmt.Errorf("carts: delete items: %w", err)
		}
	}
	for _, ch := range changed {
		q, args := updateSQL("cart_items", ch.id, ch.set)
		if _, err := sqlc.ExecContext(ctx, r.db.Rebind(q), args...); err != nil {
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
	return find(ctx, r.db, "c.customer_id = ?", "c.created_at DESC, c.id DESC", customerID)
}
