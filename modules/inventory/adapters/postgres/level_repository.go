package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"gorm.io/gorm/clause"

	"github.com/gocommerce/commerce/modules/inventory/domain"
	"github.com/gocommerce/commerce/modules/inventory/ports"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/ids"
)

// UpsertProduct inserts or refreshes the product's record. On PostgreSQL the insert or
// the conflict update holds the row lock until the transaction ends; SQLite runs one
// writing transaction at a time, so the effect is the same.
func (r *LevelRepository) UpsertProduct(ctx context.Context, p ports.ProductInfo, now time.Time) error {
	return r.UpsertProducts(ctx, []ports.ProductInfo{p}, now)
}

// UpsertProducts upserts several products' records in one statement (rows are
// inserted, and so locked, in the given order).
func (r *LevelRepository) UpsertProducts(ctx context.Context, ps []ports.ProductInfo, now time.Time) error {
	if len(ps) == 0 {
		return nil
	}
	now = now.UTC()
	rows := db.Map(ps, func(p ports.ProductInfo) productUpsertRow {
		return productUpsertRow{ProductID: p.ID, ProductName: p.Name, LowStockThreshold: p.LowStockThreshold, CreatedAt: now, UpdatedAt: now}
	})
	// Plain SQL (db.Table), queued in a transaction: the rows are locked by the time
	// the next statement runs, which goes out with it (decision 0240).
	if err := r.products.Upsert(db.Later(ctx), rows); err != nil {
		return fmt.Errorf("inventory: upsert product: %w", err)
	}
	return nil
}

// LockProduct touches the product's record (taking its row lock); false when absent.
func (r *LevelRepository) LockProduct(ctx context.Context, productID string, now time.Time) (bool, error) {
	res := r.db.Conn(ctx).Model(&productRow{}).Where("product_id = ?", productID).Update("updated_at", now.UTC())
	if res.Error != nil {
		return false, fmt.Errorf("inventory: lock product: %w", res.Error)
	}
	return res.RowsAffected > 0, nil
}

// LockProducts locks the products' stock records in product id order: SELECT ... FOR
// UPDATE on PostgreSQL; nothing on SQLite, whose writers are serialised.
func (r *LevelRepository) LockProducts(ctx context.Context, productIDs []string) error {
	if len(productIDs) == 0 || r.db.Dialect() != db.Postgres {
		return nil
	}
	var locked []string
	err := r.db.Conn(ctx).Model(&productRow{}).Where("product_id IN ?", productIDs).Order("product_id").
		Clauses(clause.Locking{Strength: "UPDATE"}).Pluck("product_id", &locked).Error
	if err != nil {
		return fmt.Errorf("inventory: lock products: %w", err)
	}
	return nil
}

// LockProductsOf locks the stock records of the reservations' products in product id
// order, as LockProducts does, in one statement that finds them too. Nothing reads its
// rows: in a transaction it is queued, and the locks are held by the time the next
// statement, which carries it, runs (decision 0240).
func (r *LevelRepository) LockProductsOf(ctx context.Context, reservationIDs []string) error {
	if len(reservationIDs) == 0 || r.db.Dialect() != db.Postgres {
		return nil
	}
	query := "SELECT product_id FROM inventory_products WHERE product_id IN (SELECT product_id FROM inventory_reservations WHERE id IN (" +
		db.Params(len(reservationIDs)) + ")) ORDER BY product_id FOR UPDATE"
	if _, err := r.db.Exec(db.Later(ctx), r.db.Rebind(query), anyOf(reservationIDs)...); err != nil {
		return fmt.Errorf("inventory: lock products: %w", err)
	}
	return nil
}

// RefreshProduct updates name and threshold of an existing record.
func (r *LevelRepository) RefreshProduct(ctx context.Context, p ports.ProductInfo) error {
	err := r.db.Conn(ctx).Model(&productRow{}).Where("product_id = ?", p.ID).
		Updates(map[string]any{"product_name": p.Name, "low_stock_threshold": p.LowStockThreshold}).Error
	if err != nil {
		return fmt.Errorf("inventory: refresh product: %w", err)
	}
	return nil
}

// Ensure returns the level, inserting a zero level when there is none. The level
// usually exists (one read); the insert runs only when it does not.
func (r *LevelRepository) Ensure(ctx context.Context, k ports.LevelKey, now time.Time) (domain.Quantities, error) {
	if q, found, err := r.Find(ctx, k); err != nil || found {
		return q, err
	}
	row := levelRow{ID: ids.New(), ProductID: k.ProductID, VariantID: k.VariantID, LocationID: k.LocationID, CreatedAt: now.UTC(), UpdatedAt: now.UTC()}
	if err := r.db.Conn(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&row).Error; err != nil {
		return domain.Quantities{}, fmt.Errorf("inventory: insert level: %w", err)
	}
	q, found, err := r.Find(ctx, k)
	if err != nil {
		return q, err
	}
	if !found {
		return q, fmt.Errorf("inventory: level %s/%s vanished", k.VariantID, k.LocationID)
	}
	return q, nil
}

// keyLists are the keys' variants and their distinct locations (for IN lists).
func keyLists(keys []ports.LevelKey) (variants, locations []string) {
	variants, locations = make([]string, 0, len(keys)), make([]string, 0, 1)
	for _, k := range keys {
		variants = append(variants, k.VariantID)
		if !slices.Contains(locations, k.LocationID) {
			locations = append(locations, k.LocationID)
		}
	}
	return variants, locations
}

func uniqueKeys(keys []ports.LevelKey) map[ports.LevelKey]bool {
	m := make(map[ports.LevelKey]bool, len(keys))
	for _, k := range keys {
		m[k] = true
	}
	return m
}

// FindAll reads the levels of keys that exist (variant and location of each key).
func (r *LevelRepository) FindAll(ctx context.Context, keys []ports.LevelKey) (map[ports.LevelKey]domain.Quantities, error) {
	out := make(map[ports.LevelKey]domain.Quantities, len(keys))
	if len(keys) == 0 {
		return out, nil
	}
	want := uniqueKeys(keys)
	variants, locations := keyLists(keys)
	var rows []levelRow
	if err := r.db.Conn(ctx).Where("variant_id IN ? AND location_id IN ?", variants, locations).Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("inventory: select levels: %w", err)
	}
	for _, row := range rows {
		k := ports.LevelKey{ProductID: row.ProductID, VariantID: row.VariantID, LocationID: row.LocationID}
		if want[k] {
			out[k] = domain.Quantities{Available: row.Available, Reserved: row.Reserved, Incoming: row.Incoming}
		}
	}
	return out, nil
}

// FindAllAt reads the levels among keys joined with their locations: their
// quantities, and whether each of their locations is active.
func (r *LevelRepository) FindAllAt(ctx context.Context, keys []ports.LevelKey) (map[ports.LevelKey]domain.Quantities, map[string]bool, error) {
	out, active := make(map[ports.LevelKey]domain.Quantities, len(keys)), map[string]bool{}
	if len(keys) == 0 {
		return out, active, nil
	}
	want := uniqueKeys(keys)
	variants, locations := keyLists(keys)
	var (
		k  ports.LevelKey
		q  domain.Quantities
		on bool
	)
	query := r.db.Rebind("SELECT l.product_id, l.variant_id, l.location_id, l.available, l.reserved, l.incoming, loc.is_active" +
		" FROM inventory_levels l JOIN inventory_locations loc ON loc.id = l.location_id" +
		" WHERE l.variant_id IN (" + db.Params(len(variants)) + ") AND l.location_id IN (" + db.Params(len(locations)) + ")")
	args := make([]any, 0, len(variants)+len(locations))
	for _, v := range variants {
		args = append(args, v)
	}
	for _, l := range locations {
		args = append(args, l)
	}
	err := r.db.Query(ctx, query, args, []any{&k.ProductID, &k.VariantID, &k.LocationID, &q.Available, &q.Reserved, &q.Incoming, &on}, func() error {
		if want[k] {
			out[k] = q
			active[k.LocationID] = on
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("inventory: select levels: %w", err)
	}
	return out, active, nil
}

// Find returns the level's quantities.
func (r *LevelRepository) Find(ctx context.Context, k ports.LevelKey) (domain.Quantities, bool, error) {
	var rows []levelRow
	if err := r.db.Conn(ctx).Where("variant_id = ? AND location_id = ?", k.VariantID, k.LocationID).Limit(1).Find(&rows).Error; err != nil {
		return domain.Quantities{}, false, fmt.Errorf("inventory: select level: %w", err)
	}
	if len(rows) == 0 {
		return domain.Quantities{}, false, nil
	}
	return domain.Quantities{Available: rows[0].Available, Reserved: rows[0].Reserved, Incoming: rows[0].Incoming}, true, nil
}

// Apply adds delta with a conditional update: reserved and incoming never go below
// zero and, with the guard, a decrease of available never takes it below zero
// (for a reservation that is `available >= quantity`). ErrGuard when refused.
func (r *LevelRepository) Apply(ctx context.Context, k ports.LevelKey, delta domain.Quantities, g ports.Guard, now time.Time) error {
	where := "variant_id = ? AND location_id = ? AND reserved + ? >= 0 AND incoming + ? >= 0"
	args := []any{k.VariantID, k.LocationID, delta.Reserved, delta.Incoming}
	if g.NonNegativeAvailable && delta.Available < 0 {
		where += " AND available >= ?"
		args = append(args, -delta.Available)
	}
	res := r.db.Conn(ctx).Model(&levelRow{}).Where(where, args...).Updates(map[string]any{
		"available":  clauseExpr("available + ?", delta.Available),
		"reserved":   clauseExpr("reserved + ?", delta.Reserved),
		"incoming":   clauseExpr("incoming + ?", delta.Incoming),
		"updated_at": now.UTC(),
	})
	if res.Error != nil {
		return fmt.Errorf("inventory: update level: %w", res.Error)
	}
	if res.RowsAffected != 1 {
		return ports.ErrGuard
	}
	return nil
}

// ApplyAll adds each delta to its level in one UPDATE (a CASE per level and column;
// the WHERE clause is Apply's condition per level), refusing all unless every level
// met its condition.
func (r *LevelRepository) ApplyAll(ctx context.Context, ds []ports.LevelDelta, now time.Time) error {
	merged := mergeDeltas(ds)
	switch len(merged) {
	case 0:
		return nil
	case 1:
		return r.Apply(ctx, merged[0].Key, merged[0].Delta, merged[0].Guard, now)
	}
	query, args := r.applyAll(merged, now)
	n, err := r.db.Exec(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("inventory: update levels: %w", err)
	}
	if n != int64(len(merged)) {
		return ports.ErrGuard
	}
	return nil
}

// ApplyAllLater is ApplyAll's update queued in ctx's transaction (db.Later), its
// guard checked when it goes out (db.Expect): refused fails the transaction.
func (r *LevelRepository) ApplyAllLater(ctx context.Context, ds []ports.LevelDelta, now time.Time, refused error) error {
	merged := mergeDeltas(ds)
	if len(merged) == 0 {
		return nil
	}
	query, args := r.applyAll(merged, now)
	_, err := r.db.Exec(db.Later(db.Expect(ctx, int64(len(merged)), refused)), query, args...)
	if err != nil && !errors.Is(err, refused) {
		return fmt.Errorf("inventory: update levels: %w", err)
	}
	return err
}

// mergeDeltas adds up the deltas of one level (its guards combined), in first-seen
// order.
func mergeDeltas(ds []ports.LevelDelta) []ports.LevelDelta {
	merged := make([]ports.LevelDelta, 0, len(ds))
	at := make(map[ports.LevelKey]int, len(ds))
	for _, d := range ds {
		if i, ok := at[d.Key]; ok {
			m := &merged[i]
			m.Delta = domain.Quantities{Available: m.Delta.Available + d.Delta.Available, Reserved: m.Delta.Reserved + d.Delta.Reserved,
				Incoming: m.Delta.Incoming + d.Delta.Incoming}
			m.Guard.NonNegativeAvailable = m.Guard.NonNegativeAvailable || d.Guard.NonNegativeAvailable
			continue
		}
		at[d.Key] = len(merged)
		merged = append(merged, d)
	}
	return merged
}

// applyAll is the UPDATE of the merged deltas: it changes one row per delta when
// every guard holds.
func (r *LevelRepository) applyAll(merged []ports.LevelDelta, now time.Time) (string, []any) {
	var set, where strings.Builder
	args := make([]any, 0, 14*len(merged)+1)
	columns := [...]struct {
		name  string
		delta func(domain.Quantities) int
	}{
		{"available", func(q domain.Quantities) int { return q.Available }},
		{"reserved", func(q domain.Quantities) int { return q.Reserved }},
		{"incoming", func(q domain.Quantities) int { return q.Incoming }},
	}
	for _, col := range columns {
		set.WriteString(col.name + " = " + col.name + " + CASE")
		for _, d := range merged {
			set.WriteString(" WHEN variant_id = ? AND location_id = ? THEN CAST(? AS integer)")
			args = append(args, d.Key.VariantID, d.Key.LocationID, col.delta(d.Delta))
		}
		set.WriteString(" ELSE 0 END, ")
	}
	set.WriteString("updated_at = ?")
	args = append(args, now.UTC())
	for i, d := range merged {
		if i > 0 {
			where.WriteString(" OR ")
		}
		where.WriteString("(variant_id = ? AND location_id = ? AND reserved + ? >= 0 AND incoming + ? >= 0")
		args = append(args, d.Key.VariantID, d.Key.LocationID, d.Delta.Reserved, d.Delta.Incoming)
		if d.Guard.NonNegativeAvailable && d.Delta.Available < 0 {
			where.WriteString(" AND available >= ?")
			args = append(args, -d.Delta.Available)
		}
		where.WriteString(")")
	}
	return r.db.Rebind("UPDATE inventory_levels SET " + set.String() + " WHERE " + where.String()), args
}

// anyOf is ss as statement arguments.
func anyOf(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func clauseExpr(sql string, v any) clause.Expr { return clause.Expr{SQL: sql, Vars: []any{v}} }

type totalsRow struct {
	VariantID string
	ProductID string
	Available int
	Reserved  int
	Incoming  int
}

// VariantTotals sums each variant's levels over locations.
func (r *LevelRepository) VariantTotals(ctx context.Context, variantIDs []string) (map[string]ports.VariantStock, error) {
	var rows []totalsRow
	err := r.db.Conn(ctx).Model(&levelRow{}).
		Select("variant_id, product_id, SUM(available) AS available, SUM(reserved) AS reserved, SUM(incoming) AS incoming").
		Where("variant_id IN ?", variantIDs).Group("variant_id, product_id").Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("inventory: variant totals: %w", err)
	}
	out := make(map[string]ports.VariantStock, len(rows))
	for _, row := range rows {
		out[row.VariantID] = ports.VariantStock{ProductID: row.ProductID, Quantities: domain.Quantities{Available: row.Available, Reserved: row.Reserved, Incoming: row.Incoming}}
	}
	return out, nil
}

type aggregateRow struct {
	ProductID         string
	ProductName       string
	LowStockThreshold int
	UpdatedAt         time.Time
	TotalAvailable    int
	TotalReserved     int
	TotalIncoming     int
}

type locationLevelRow struct {
	ProductID    string
	LocationID   string
	LocationName string
	Available    int
	Reserved     int
	Incoming     int
}

// ProductLevel returns one product's aggregated level.
func (r *LevelRepository) ProductLevel(ctx context.Context, productID string) (domain.ProductLevel, bool, error) {
	levels, _, err := r.List(ctx, ports.LevelFilter{ProductID: productID}, ports.Page{Limit: 1})
	if err != nil || len(levels) == 0 {
		return domain.ProductLevel{}, false, err
	}
	return levels[0], true, nil
}

// List aggregates levels per product (optionally at one location), filters on the
// stock status computed in SQL, sorts and pages.
func (r *LevelRepository) List(ctx context.Context, f ports.LevelFilter, p ports.Page) ([]domain.ProductLevel, int64, error) {
	var (
		where []string
		args  []any
	)
	if f.ProductID != "" {
		where = append(where, "l.product_id = ?")
		args = append(args, f.ProductID)
	}
	if f.LocationID != "" {
		where = append(where, "l.location_id = ?")
		args = append(args, f.LocationID)
	}
	from := "FROM inventory_levels l JOIN inventory_products p ON p.product_id = l.product_id"
	if len(where) > 0 {
		from += " WHERE " + strings.Join(where, " AND ")
	}
	from += " GROUP BY l.product_id, p.product_name, p.low_stock_threshold, p.updated_at"
	avail := "SUM(l.available)"
	if f.IncludeIncoming {
		avail = "SUM(l.available + l.incoming)"
	}
	var having []string
	switch f.Status {
	case domain.OutOfStock:
		having = append(having, avail+" <= 0")
	case domain.LowStock:
		having = append(having, avail+" > 0 AND "+avail+" <= p.low_stock_threshold")
	case domain.InStock:
		having = append(having, avail+" > 0 AND "+avail+" > p.low_stock_threshold")
	}
	if f.LowStockOnly {
		having = append(having, "("+avail+" <= 0 OR "+avail+" <= p.low_stock_threshold)")
	}
	if len(having) > 0 {
		from += " HAVING " + strings.Join(having, " AND ")
	}

	var total int64
	if err := r.db.Conn(ctx).Raw("SELECT COUNT(*) FROM (SELECT l.product_id "+from+") AS t", args...).Scan(&total).Error; err != nil {
		return nil, 0, fmt.Errorf("inventory: count levels: %w", err)
	}
	dir := "ASC"
	if f.Desc {
		dir = "DESC"
	}
	var order string
	switch f.Sort {
	case ports.SortProductID:
		order = "l.product_id " + dir
	case ports.SortAvailable:
		order = "total_available " + dir + ", l.product_id " + dir
	default:
		order = "p.updated_at " + dir + ", l.product_id " + dir
	}
	var rows []aggregateRow
	q := "SELECT l.product_id, p.product_name, p.low_stock_threshold, p.updated_at, " +
		"SUM(l.available) AS total_available, SUM(l.reserved) AS total_reserved, SUM(l.incoming) AS total_incoming " +
		from + " ORDER BY " + order + " LIMIT ? OFFSET ?"
	if err := r.db.Conn(ctx).Raw(q, append(args, p.Limit, p.Offset)...).Scan(&rows).Error; err != nil {
		return nil, 0, fmt.Errorf("inventory: list levels: %w", err)
	}
	if len(rows) == 0 {
		return []domain.ProductLevel{}, total, nil
	}
	productIDs := make([]string, len(rows))
	for i, row := range rows {
		productIDs[i] = row.ProductID
	}
	locs := r.db.Conn(ctx).Table("inventory_levels AS l").
		Select("l.product_id, l.location_id, loc.name AS location_name, SUM(l.available) AS available, SUM(l.reserved) AS reserved, SUM(l.incoming) AS incoming").
		Joins("JOIN inventory_locations loc ON loc.id = l.location_id").
		Where("l.product_id IN ?", productIDs)
	if f.LocationID != "" {
		locs = locs.Where("l.location_id = ?", f.LocationID)
	}
	var locRows []locationLevelRow
	if err := locs.Group("l.product_id, l.location_id, loc.name, loc.is_default").
		Order("loc.is_default DESC, loc.name ASC, l.location_id ASC").Scan(&locRows).Error; err != nil {
		return nil, 0, fmt.Errorf("inventory: list location levels: %w", err)
	}
	byProduct := map[string][]domain.LocationLevel{}
	for _, lr := range locRows {
		byProduct[lr.ProductID] = append(byProduct[lr.ProductID], domain.LocationLevel{
			LocationID: lr.LocationID, LocationName: lr.LocationName,
			Quantities: domain.Quantities{Available: lr.Available, Reserved: lr.Reserved, Incoming: lr.Incoming},
		})
	}
	out := make([]domain.ProductLevel, len(rows))
	for i, row := range rows {
		ls := byProduct[row.ProductID]
		if ls == nil {
			ls = []domain.LocationLevel{}
		}
		out[i] = domain.ProductLevel{
			ProductID: row.ProductID, ProductName: row.ProductName, LowStockThreshold: row.LowStockThreshold,
			Totals:    domain.Quantities{Available: row.TotalAvailable, Reserved: row.TotalReserved, Incoming: row.TotalIncoming},
			Locations: ls, UpdatedAt: row.UpdatedAt.UTC(),
		}
	}
	return out, total, nil
}

// DeleteProduct removes a product's levels.
func (r *LevelRepository) DeleteProduct(ctx context.Context, productID string) error {
	return db.Done(r.db.Conn(ctx).Where("product_id = ?", productID).Delete(&levelRow{}), "inventory: delete product levels")
}

// DeleteVariant removes a variant's levels.
func (r *LevelRepository) DeleteVariant(ctx context.Context, variantID string) error {
	return db.Done(r.db.Conn(ctx).Where("variant_id = ?", variantID).Delete(&levelRow{}), "inventory: delete variant levels")
}
