package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/gocommerce/commerce/modules/carts/domain"
	"github.com/gocommerce/commerce/modules/carts/ports"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/events"
)

// CartRepository implements ports.CartRepository on the carts and cart_items tables.
// Its Apply is the write path WriteOptions selects (writer.go).
type CartRepository struct {
	db     *db.DB
	outbox *events.Outbox
	writer ports.CartWriter
	cache  *cartCache // the versioned writer's, or nil
}

var _ ports.CartRepository = (*CartRepository)(nil)

// NewCartRepository builds the repository with every write optimisation on (Optimised);
// Apply stores its events in outbox.
func NewCartRepository(d *db.DB, outbox *events.Outbox) *CartRepository {
	return NewCartRepositoryWith(d, outbox, Optimised)
}

// NewCartRepositoryWith builds the repository with the write path o selects.
func NewCartRepositoryWith(d *db.DB, outbox *events.Outbox, o WriteOptions) *CartRepository {
	r := &CartRepository{db: d, outbox: outbox}
	r.writer = newWriter(r, o)
	return r
}

// Apply writes a change that is its own use case with its events (ports.CartWriter),
// through the write path the repository was built with.
func (r *CartRepository) Apply(ctx context.Context, id domain.CartID, change func(context.Context, *domain.Cart) ([]ports.Event, error)) (*domain.Cart, error) {
	return r.writer.Apply(ctx, id, change)
}

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
	// The new cart's first change can start from it (Apply) once it is committed.
	if r.cache != nil {
		created := c.Clone()
		r.db.AfterCommit(ctx, func() { r.cache.put(created) })
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
	return query(ctx, d, "SELECT "+cartSelect+", "+itemSelect+" FROM carts c LEFT JOIN cart_items i ON i.cart_id = c.id WHERE "+where+
		" ORDER BY "+order+", i.created_at, i.id", args...)
}

// query runs q, which selects cartSelect and itemSelect ordered by cart, and builds
// the carts with their items.
func query(ctx context.Context, d *db.DB, q string, args ...any) ([]*domain.Cart, error) {
	var (
		out    []*domain.Cart
		cart   cartRow
		items  []itemRow
		cr     cartRow
		ir     itemRow
		broken error
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
	dest := append(pointers(cr.fields()), orNull(ir.fields())...)
	err := d.Query(ctx, d.Rebind(q), args, dest, func() error {
		if cr.ID != cart.ID {
			if err := flush(); err != nil {
				broken = err
				return err
			}
			cart, items = cr, nil
		}
		if ir.ID != "" {
			items = append(items, ir)
		}
		// The next row scans into zero values (orNull leaves a NULL's field alone).
		cr, ir = cartRow{}, itemRow{}
		return nil
	})
	switch {
	case broken != nil:
		return nil, broken
	case err != nil:
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
	if err := r.db.QueryRow(ctx, r.db.Rebind(q), []any{string(id)}, pointers(cart.fields())...); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, domain.ErrCartNotFound
		}
		return nil, fmt.Errorf("carts: select: %w", err)
	}
	var (
		items []itemRow
		ir    itemRow
	)
	err := r.db.Query(ctx, r.db.Rebind("SELECT "+itemSelect+" FROM cart_items i WHERE i.cart_id = ? ORDER BY i.created_at, i.id"),
		[]any{string(id)}, pointers(ir.fields()), func() error {
			items = append(items, ir)
			ir = itemRow{}
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("carts: items: %w", err)
	}
	return cart.toDomain(items)
}

// Convert marks the cart converted for the order when it is active and not expired,
// and returns it with its items, in one statement on PostgreSQL (an UPDATE ...
// RETURNING joined to the items: the items as the statement's snapshot sees them,
// which are the checkout's, decision 0186). false when the cart is not active, and on
// SQLite: the caller takes Update's path then.
func (r *CartRepository) Convert(ctx context.Context, id domain.CartID, orderID string, now time.Time) (*domain.Cart, bool, error) {
	if r.db.Dialect() != db.Postgres {
		return nil, false, nil
	}
	r.cache.drop(id)
	cs, err := query(ctx, r.db, "WITH c AS (UPDATE carts SET status = ?, converted_order_id = ?, updated_at = ?, version = version + 1"+
		" WHERE id = ? AND status = ? AND expires_at > ? RETURNING *) SELECT "+cartSelect+", "+itemSelect+
		" FROM c LEFT JOIN cart_items i ON i.cart_id = c.id ORDER BY c.id, i.created_at, i.id",
		string(domain.StatusConverted), orderID, now.UTC(), string(id), string(domain.StatusActive), now.UTC())
	if err != nil || len(cs) == 0 {
		return nil, false, err
	}
	return cs[0], true, nil
}

// Columns an update never writes (the version is bumped by every update instead).
func cartUpdatable(column string) bool {
	return column != "id" && column != "created_at" && column != "version"
}

func itemUpdatable(column string) bool {
	return column != "id" && column != "cart_id" && column != "created_at"
}

// itemChange is the changed columns of one item, and its row as changed.
type itemChange struct {
	id  string
	set []field
	row itemRow
}

// diff is what a change did to a cart: the cart row as changed and its changed
// columns, and the items removed, changed and added.
type diff struct {
	after   cartRow
	cart    []field
	removed []string
	changed []itemChange
	added   []itemRow
}

// edit applies change to c and answers what it changed.
func edit(ctx context.Context, c *domain.Cart, change func(context.Context, *domain.Cart) error) (diff, error) {
	before, err := fromCart(c)
	if err != nil {
		return diff{}, err
	}
	beforeItems := make(map[domain.ItemID]itemRow, len(c.Items))
	for _, it := range c.Items {
		beforeItems[it.ID] = fromItem(c.ID, it)
	}
	if err := change(ctx, c); err != nil {
		return diff{}, err
	}
	after, err := fromCart(c)
	if err != nil {
		return diff{}, err
	}
	d := diff{after: after, cart: changes(before.fields(), after.fields(), cartUpdatable)}
	kept := make(map[domain.ItemID]bool, len(c.Items))
	for _, it := range c.Items {
		kept[it.ID] = true
		nr := fromItem(c.ID, it)
		old, ok := beforeItems[it.ID]
		if !ok {
			d.added = append(d.added, nr)
			continue
		}
		if set := changes(old.fields(), nr.fields(), itemUpdatable); len(set) > 0 {
			d.changed = append(d.changed, itemChange{nr.ID, set, nr})
		}
	}
	for id := range beforeItems {
		if !kept[id] {
			d.removed = append(d.removed, string(id))
		}
	}
	return d, nil
}

// Update loads the cart row-locked, applies change and writes what changed: the cart
// row's changed columns with its version bumped, then the item differences: removed
// items first, then the changed columns of changed ones, then new ones (so the
// identity index never sees two identical lines).
func (r *CartRepository) Update(ctx context.Context, id domain.CartID, change func(context.Context, *domain.Cart) error) (*domain.Cart, error) {
	r.cache.drop(id)
	c, err := r.lock(ctx, id)
	if err != nil {
		return nil, err
	}
	d, err := edit(ctx, c, change)
	if err != nil {
		return nil, err
	}
	if err := r.write(ctx, c, d); err != nil {
		return nil, err
	}
	c.Version++
	return c, nil
}

// write stores a diff of the locked cart c, a statement per part, in ctx's transaction.
func (r *CartRepository) write(ctx context.Context, c *domain.Cart, d diff) error {
	conn := r.db.Conn(ctx)
	q, args := updateSQL("carts", string(c.ID), d.cart, "version = version + 1")
	if _, err := r.db.Exec(ctx, r.db.Rebind(q), args...); err != nil {
		return fmt.Errorf("carts: update: %w", err)
	}
	if len(d.removed) > 0 {
		if err := conn.Where("id IN ?", d.removed).Delete(&itemRow{}).Error; err != nil {
			return fmt.Errorf("carts: delete items: %w", err)
		}
	}
	for _, ch := range d.changed {
		q, args := updateSQL("cart_items", ch.id, ch.set)
		if _, err := r.db.Exec(ctx, r.db.Rebind(q), args...); err != nil {
			return fmt.Errorf("carts: update item: %w", err)
		}
	}
	if len(d.added) > 0 {
		if err := conn.Create(&d.added).Error; err != nil {
			return fmt.Errorf("carts: insert items: %w", err)
		}
	}
	return nil
}

// Delete removes a cart and its items.
func (r *CartRepository) Delete(ctx context.Context, id domain.CartID) error {
	r.cache.drop(id)
	conn := r.db.Conn(ctx)
	if err := conn.Where("cart_id = ?", string(id)).Delete(&itemRow{}).Error; err != nil {
		return fmt.Errorf("carts: delete items: %w", err)
	}
	if err := conn.Where("id = ?", string(id)).Delete(&cartRow{}).Error; err != nil {
		return fmt.Errorf("carts: delete: %w", err)
	}
	return nil
}

// ExpireInactive marks active carts past expires_at expired (found through the index
// on expiry_hour, which is never after expires_at).
func (r *CartRepository) ExpireInactive(ctx context.Context, now time.Time) (int64, error) {
	res := r.db.Conn(ctx).Model(&cartRow{}).Where("status = ? AND expiry_hour <= ? AND expires_at <= ?", string(domain.StatusActive), now.UTC(), now.UTC()).
		Updates(map[string]any{"status": string(domain.StatusExpired), "updated_at": now.UTC(), "version": gorm.Expr("version + 1")})
	if res.Error != nil {
		return 0, fmt.Errorf("carts: expire: %w", res.Error)
	}
	return res.RowsAffected, nil
}

// ForCustomer returns the customer's carts, newest first.
func (r *CartRepository) ForCustomer(ctx context.Context, customerID string) ([]*domain.Cart, error) {
	return find(ctx, r.db, "c.customer_id = ?", "c.created_at DESC, c.id DESC", customerID)
}

// IdleCustomerCarts returns active, unexpired customer carts with items whose last
// change is before before, after the cursor (afterAt, afterID), oldest change first,
// without their items: one statement on the partial index of active customer carts.
func (r *CartRepository) IdleCustomerCarts(ctx context.Context, before, now, afterAt time.Time, afterID string, limit int) ([]*domain.Cart, error) {
	var (
		out []*domain.Cart
		cr  cartRow
	)
	// The status is written out, not bound: the partial index's predicate (status =
	// 'active' AND customer_id IS NOT NULL) then holds for a generic plan too.
	q := "SELECT " + cartSelect + " FROM carts c WHERE c.status = '" + string(domain.StatusActive) + "' AND c.customer_id IS NOT NULL AND c.item_count > 0" +
		" AND c.updated_at < ? AND c.expires_at > ? AND (c.updated_at > ? OR (c.updated_at = ? AND c.id > ?))" +
		" ORDER BY c.updated_at, c.id LIMIT ?"
	if afterID == "" {
		afterID = "00000000-0000-0000-0000-000000000000" // ids are UUIDs: before any
	}
	args := []any{before.UTC(), now.UTC(), afterAt.UTC(), afterAt.UTC(), afterID, limit}
	err := r.db.Query(ctx, r.db.Rebind(q), args, pointers(cr.fields()), func() error {
		c, err := cr.toDomain(nil)
		if err != nil {
			return err
		}
		out = append(out, c)
		cr = cartRow{}
		return nil
	})
	return out, err
}
