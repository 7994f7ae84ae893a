package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gocommerce/commerce/modules/statistics/api"
	"github.com/gocommerce/commerce/modules/statistics/domain"
	"github.com/gocommerce/commerce/modules/statistics/ports"
	"github.com/gocommerce/commerce/platform/db"
)

// Repository is ports.Repository on SQL both engines run.
type Repository struct{ db *db.DB }

// NewRepository builds the repository.
func NewRepository(d *db.DB) *Repository { return &Repository{db: d} }

var _ ports.Repository = (*Repository)(nil)

// sum is a column's sum as a bigint, 0 over no rows (PostgreSQL sums bigints as numeric).
func sum(expr string) string { return "COALESCE(CAST(SUM(" + expr + ") AS BIGINT), 0)" }

func (r *Repository) exec(ctx context.Context, q string, args ...any) error {
	_, err := r.db.Exec(ctx, r.db.Rebind(q), args...)
	return err
}

func (r *Repository) query(ctx context.Context, q string, args []any, dest []any, each func() error) error {
	return r.db.Query(ctx, r.db.Rebind(q), args, dest, each)
}

// Orders implements ports.Repository: the records with their lines, in one statement
// (a row per line; one row with NULL line columns for an order without lines).
func (r *Repository) Orders(ctx context.Context, ids []string) (map[string]*domain.Order, error) {
	out := make(map[string]*domain.Order, len(ids))
	for chunk := range slices.Chunk(ids, 500) {
		var (
			id            string
			rec           domain.Order
			sd            int64
			line          sql.NullInt64
			product, vrnt sql.NullString
			title, sku    sql.NullString
			qty, rqty     sql.NullInt64
			rev, ref      sql.NullInt64
		)
		args := make([]any, len(chunk))
		for i, v := range chunk {
			args[i] = v
		}
		err := r.query(ctx, `SELECT o.order_id, o.version, o.currency, o.customer_id, o.day, o.created_at, o.status, o.fulfillment,
			o.channel, o.payment_method, o.country, o.items, o.gross, o.discounts, o.refunded, o.closed_at, o.fulfilled_at, o.same_day,
			l.line, l.product_id, l.variant_id, l.title, l.sku, l.quantity, l.refunded_quantity, l.revenue, l.refunded
			FROM statistics_orders o LEFT JOIN statistics_order_lines l ON l.order_id = o.order_id
			WHERE o.order_id IN (`+db.Params(len(chunk))+`) ORDER BY o.order_id, l.line`, args,
			[]any{&id, &rec.Version, &rec.Currency, &rec.CustomerID, &rec.Day, &rec.CreatedAt, &rec.Status, &rec.Fulfillment, &rec.Channel,
				&rec.PaymentMethod, &rec.Country, &rec.Items, &rec.Gross, &rec.Discounts, &rec.Refunded, &rec.ClosedAt, &rec.FulfilledAt, &sd,
				&line, &product, &vrnt, &title, &sku, &qty, &rqty, &rev, &ref},
			func() error {
				o, ok := out[id]
				if !ok { // the order's columns, the same on every row of it
					o = new(domain.Order)
					*o = rec
					o.ID, o.FulfilledSameDay = id, sd == 1
					out[id] = o
				}
				if line.Valid {
					o.Lines = append(o.Lines, domain.Line{Line: int(line.Int64), ProductID: product.String, VariantID: vrnt.String,
						Title: title.String, SKU: sku.String, Quantity: int(qty.Int64), RefundedQty: int(rqty.Int64),
						Revenue: rev.Int64, Refunded: ref.Int64})
				}
				return nil
			})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// SaveOrders implements ports.Repository: the records in one upsert and the lines in
// one delete (of the changed orders' stored lines) and one insert, per 50 orders and
// per 50 lines (within every SQLite's limit on arguments).
func (r *Repository) SaveOrders(ctx context.Context, changes []ports.OrderChange) error {
	for chunk := range slices.Chunk(changes, 50) {
		args := make([]any, 0, 18*len(chunk))
		for _, c := range chunk {
			o := c.New
			sameDay := 0
			if o.FulfilledSameDay {
				sameDay = 1
			}
			args = append(args, o.ID, o.Version, o.Currency, o.CustomerID, o.Day, o.CreatedAt, o.Status, o.Fulfillment, o.Channel,
				o.PaymentMethod, o.Country, o.Items, o.Gross, o.Discounts, o.Refunded, o.ClosedAt, o.FulfilledAt, sameDay)
		}
		if err := r.exec(ctx, `INSERT INTO statistics_orders (order_id, version, currency, customer_id, day, created_at, status,
			fulfillment, channel, payment_method, country, items, gross, discounts, refunded, closed_at, fulfilled_at, same_day)
			VALUES `+rowsOf(18, len(chunk))+`
			ON CONFLICT (order_id) DO UPDATE SET version = excluded.version, currency = excluded.currency,
			customer_id = excluded.customer_id, day = excluded.day, created_at = excluded.created_at, status = excluded.status,
			fulfillment = excluded.fulfillment, channel = excluded.channel, payment_method = excluded.payment_method,
			country = excluded.country, items = excluded.items, gross = excluded.gross, discounts = excluded.discounts,
			refunded = excluded.refunded, closed_at = excluded.closed_at, fulfilled_at = excluded.fulfilled_at,
			same_day = excluded.same_day`, args...); err != nil {
			return err
		}
	}
	var stale, lines []any
	for _, c := range changes {
		if c.Old != nil {
			if domain.SameLines(c.New, c.Old) {
				continue
			}
			stale = append(stale, c.New.ID)
		}
		for _, l := range c.New.Lines {
			lines = append(lines, c.New.ID, l.Line, l.ProductID, l.VariantID, l.Title, l.SKU, l.Quantity, l.RefundedQty, l.Revenue, l.Refunded)
		}
	}
	for chunk := range slices.Chunk(stale, 500) {
		if err := r.exec(ctx, `DELETE FROM statistics_order_lines WHERE order_id IN (`+db.Params(len(chunk))+`)`, chunk...); err != nil {
			return err
		}
	}
	for chunk := range slices.Chunk(lines, 10*50) {
		if err := r.exec(ctx, `INSERT INTO statistics_order_lines (order_id, line, product_id, variant_id, title, sku, quantity,
			refunded_quantity, revenue, refunded) VALUES `+rowsOf(10, len(chunk)/10), chunk...); err != nil {
			return err
		}
	}
	return nil
}

// AddDaily implements ports.Repository.
func (r *Repository) AddDaily(ctx context.Context, k domain.DailyKey, m domain.Measures, sign int64) error {
	var d domain.Measures
	d.Add(m, sign)
	err := r.exec(ctx, `INSERT INTO statistics_daily (day, currency, channel, payment_method, status, fulfillment, country,
		orders, items, gross, discounts, refunded, closed_orders, closed_secs, fulfilled_orders, fulfilled_secs, same_day, within_48h)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (currency, day, channel, payment_method, status, fulfillment, country) DO UPDATE SET
		orders = statistics_daily.orders + excluded.orders, items = statistics_daily.items + excluded.items,
		gross = statistics_daily.gross + excluded.gross, discounts = statistics_daily.discounts + excluded.discounts,
		refunded = statistics_daily.refunded + excluded.refunded,
		closed_orders = statistics_daily.closed_orders + excluded.closed_orders,
		closed_secs = statistics_daily.closed_secs + excluded.closed_secs,
		fulfilled_orders = statistics_daily.fulfilled_orders + excluded.fulfilled_orders,
		fulfilled_secs = statistics_daily.fulfilled_secs + excluded.fulfilled_secs,
		same_day = statistics_daily.same_day + excluded.same_day, within_48h = statistics_daily.within_48h + excluded.within_48h`,
		k.Day, k.Currency, k.Channel, k.PaymentMethod, k.Status, k.Fulfillment, k.Country,
		d.Orders, d.Items, d.Gross, d.Discounts, d.Refunded, d.ClosedOrders, d.ClosedSecs, d.FulfilledOrders, d.FulfilledSecs,
		d.SameDay, d.Within48h)
	if err != nil || d.Orders >= 0 {
		return err
	}
	return r.exec(ctx, `DELETE FROM statistics_daily WHERE currency = ? AND day = ? AND channel = ? AND payment_method = ?
		AND status = ? AND fulfillment = ? AND country = ? AND orders = 0`,
		k.Currency, k.Day, k.Channel, k.PaymentMethod, k.Status, k.Fulfillment, k.Country)
}

// AddProducts implements ports.Repository: the cells of the days in one statement and
// those of their months in another (cells of one month summed first), rows in key
// order so that concurrent writers lock them in the same order; a cell left with no
// order is removed.
func (r *Repository) AddProducts(ctx context.Context, cells map[domain.ProductKey]domain.ProductMeasures) error {
	for _, t := range []struct {
		table, period string
		of            func(day string) string
	}{
		{"statistics_product_daily", "day", func(day string) string { return day }},
		{"statistics_product_monthly", "month", month},
	} {
		sums := map[domain.ProductKey]domain.ProductMeasures{}
		for k, m := range cells {
			if m == (domain.ProductMeasures{}) {
				continue
			}
			k.Day = t.of(k.Day)
			s := sums[k]
			s.Orders, s.Quantity, s.RefundedQty = s.Orders+m.Orders, s.Quantity+m.Quantity, s.RefundedQty+m.RefundedQty
			s.Revenue, s.Refunded = s.Revenue+m.Revenue, s.Refunded+m.Refunded
			sums[k] = s
		}
		maps.DeleteFunc(sums, func(_ domain.ProductKey, m domain.ProductMeasures) bool { return m == domain.ProductMeasures{} })
		if len(sums) == 0 {
			continue
		}
		keys := domain.SortedProductKeys(sums)
		args := make([]any, 0, 9*len(keys))
		for _, k := range keys {
			m := sums[k]
			args = append(args, k.Day, k.Currency, k.ProductID, k.VariantID, m.Orders, m.Quantity, m.RefundedQty, m.Revenue, m.Refunded)
		}
		err := r.exec(ctx, `INSERT INTO `+t.table+` (`+t.period+`, currency, product_id, variant_id, orders, quantity,
			refunded_quantity, revenue, refunded) VALUES `+rowsOf(9, len(keys))+`
			ON CONFLICT (currency, `+t.period+`, product_id, variant_id) DO UPDATE SET
			orders = `+t.table+`.orders + excluded.orders, quantity = `+t.table+`.quantity + excluded.quantity,
			refunded_quantity = `+t.table+`.refunded_quantity + excluded.refunded_quantity,
			revenue = `+t.table+`.revenue + excluded.revenue, refunded = `+t.table+`.refunded + excluded.refunded`, args...)
		if err != nil {
			return err
		}
		for _, k := range keys {
			if sums[k].Orders < 0 {
				if err := r.exec(ctx, `DELETE FROM `+t.table+` WHERE currency = ? AND `+t.period+` = ? AND product_id = ? AND variant_id = ?
					AND orders = 0`, k.Currency, k.Day, k.ProductID, k.VariantID); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// month is the month (YYYY-MM) of a day (YYYY-MM-DD).
func month(day string) string {
	if len(day) < 7 {
		return day
	}
	return day[:7]
}

// RefreshCustomer implements ports.Repository.
func (r *Repository) RefreshCustomer(ctx context.Context, customerID, currency string) error {
	if customerID == "" {
		return nil
	}
	if err := r.exec(ctx, `DELETE FROM statistics_customer_totals WHERE customer_id = ? AND currency = ?`, customerID, currency); err != nil {
		return err
	}
	return r.exec(ctx, `INSERT INTO statistics_customer_totals (customer_id, currency, orders, spent, first_at, last_at,
		first_day, last_day, first_channel)
		SELECT customer_id, currency, COUNT(*), `+sum("gross - refunded")+`, MIN(created_at), MAX(created_at), MIN(day), MAX(day),
		(SELECT f.channel FROM statistics_orders f WHERE f.customer_id = o.customer_id AND f.currency = o.currency
		 AND f.status <> 'cancelled' ORDER BY f.created_at, f.order_id LIMIT 1)
		FROM statistics_orders o WHERE customer_id = ? AND currency = ? AND status <> 'cancelled'
		GROUP BY customer_id, currency`, customerID, currency)
}

// SaveCustomer implements ports.Repository (and counts the customer in its day).
func (r *Repository) SaveCustomer(ctx context.Context, id, day string, createdAt int64) error {
	n, err := r.db.Exec(ctx, r.db.Rebind(`INSERT INTO statistics_customers (customer_id, day, created_at) VALUES (?, ?, ?)
		ON CONFLICT (customer_id) DO NOTHING`), id, day, createdAt)
	if err != nil || n == 0 {
		return err
	}
	return r.exec(ctx, `INSERT INTO statistics_customer_days (day, customers) VALUES (?, 1)
		ON CONFLICT (day) DO UPDATE SET customers = statistics_customer_days.customers + 1`, day)
}

// DeleteCustomer implements ports.Repository.
func (r *Repository) DeleteCustomer(ctx context.Context, id string) error {
	var day string
	err := r.db.QueryRow(ctx, r.db.Rebind(`SELECT day FROM statistics_customers WHERE customer_id = ?`), []any{id}, &day)
	switch {
	case err == nil:
		if err := r.exec(ctx, `UPDATE statistics_customer_days SET customers = customers - 1 WHERE day = ?`, day); err != nil {
			return err
		}
	case !errors.Is(err, sql.ErrNoRows):
		return err
	}
	for _, t := range []string{"statistics_customers", "statistics_customer_totals", "statistics_segments"} {
		if err := r.exec(ctx, `DELETE FROM `+t+` WHERE customer_id = ?`, id); err != nil {
			return err
		}
	}
	return nil
}

// SaveProducts implements ports.Repository: the products and their variants upserted
// (one statement each, whatever the number of products and variants) and the variants
// they no longer have removed. Stock changes re-save products with every event, so a
// relay batch of them is three statements, not two deletes and an insert a row. The
// products must be distinct (RecordProducts keeps each one's latest).
func (r *Repository) SaveProducts(ctx context.Context, ps []ports.Product) error {
	// At most maxSavedVariants variants a round (a product with more goes alone), well
	// under either engine's limit of bind parameters.
	const maxSavedVariants = 1000
	for n, variants := 0, 0; n < len(ps); n++ {
		variants += len(ps[n].Variants)
		if variants > maxSavedVariants && n > 0 {
			if err := r.saveProducts(ctx, ps[:n]); err != nil {
				return err
			}
			return r.SaveProducts(ctx, ps[n:])
		}
	}
	return r.saveProducts(ctx, ps)
}

func (r *Repository) saveProducts(ctx context.Context, ps []ports.Product) error {
	if len(ps) == 0 {
		return nil
	}
	productArgs := make([]any, 0, 7*len(ps))
	productIDs := make([]any, 0, len(ps))
	var variantArgs, variantIDs []any
	for _, p := range ps {
		productArgs = append(productArgs, p.ID, p.Title, p.ProductType, p.Currency, p.InventoryQuantity, p.LowStock, p.Tracked)
		productIDs = append(productIDs, p.ID)
		for _, v := range p.Variants {
			variantIDs = append(variantIDs, v.ID)
			variantArgs = append(variantArgs, v.ID, p.ID, v.Title, v.SKU, v.Cost, v.InventoryQuantity)
		}
	}
	if err := r.exec(ctx, `INSERT INTO statistics_products (product_id, title, product_type, currency, inventory_quantity,
		low_stock_threshold, tracked) VALUES `+rowsOf(7, len(ps))+`
		ON CONFLICT (product_id) DO UPDATE SET title = excluded.title, product_type = excluded.product_type, currency = excluded.currency,
		inventory_quantity = excluded.inventory_quantity, low_stock_threshold = excluded.low_stock_threshold, tracked = excluded.tracked`,
		productArgs...); err != nil {
		return err
	}
	if len(variantIDs) == 0 {
		return r.exec(ctx, `DELETE FROM statistics_variants WHERE product_id IN (`+db.Params(len(productIDs))+`)`, productIDs...)
	}
	if err := r.exec(ctx, `INSERT INTO statistics_variants (variant_id, product_id, title, sku, cost, inventory_quantity) VALUES `+
		rowsOf(6, len(variantIDs))+`
		ON CONFLICT (variant_id) DO UPDATE SET product_id = excluded.product_id, title = excluded.title, sku = excluded.sku,
		cost = excluded.cost, inventory_quantity = excluded.inventory_quantity`, variantArgs...); err != nil {
		return err
	}
	return r.exec(ctx, `DELETE FROM statistics_variants WHERE product_id IN (`+db.Params(len(productIDs))+`) AND variant_id NOT IN (`+
		db.Params(len(variantIDs))+`)`, append(productIDs, variantIDs...)...)
}

// rowsOf is n rows of width placeholders each.
func rowsOf(width, n int) string {
	return strings.TrimSuffix(strings.Repeat("("+db.Params(width)+"), ", n), ", ")
}

// DeleteProduct implements ports.Repository.
func (r *Repository) DeleteProduct(ctx context.Context, id string) error {
	if err := r.exec(ctx, `DELETE FROM statistics_variants WHERE product_id = ?`, id); err != nil {
		return err
	}
	return r.exec(ctx, `DELETE FROM statistics_products WHERE product_id = ?`, id)
}

// Daily implements ports.Repository.
func (r *Repository) Daily(ctx context.Context, rg ports.Range, dims ...string) ([]ports.DailyRow, error) {
	for _, d := range dims {
		if !slices.Contains(ports.DailyDims, d) {
			return nil, errors.New("statistics: unknown dimension " + d)
		}
	}
	cols := ""
	if len(dims) > 0 {
		cols = strings.Join(dims, ", ") + ", "
	}
	q := `SELECT ` + cols + sum("orders") + `, ` + sum("items") + `, ` + sum("gross") + `, ` + sum("discounts") + `, ` +
		sum("refunded") + `, ` + sum("closed_orders") + `, ` + sum("closed_secs") + `, ` + sum("fulfilled_orders") + `, ` +
		sum("fulfilled_secs") + `, ` + sum("same_day") + `, ` + sum("within_48h") +
		` FROM statistics_daily WHERE currency = ? AND day >= ? AND day <= ?`
	if len(dims) > 0 {
		q += ` GROUP BY ` + strings.Join(dims, ", ") + ` ORDER BY ` + strings.Join(dims, ", ")
	}
	vals := make([]string, len(dims))
	var m domain.Measures
	dest := make([]any, 0, len(dims)+11)
	for i := range vals {
		dest = append(dest, &vals[i])
	}
	dest = append(dest, &m.Orders, &m.Items, &m.Gross, &m.Discounts, &m.Refunded, &m.ClosedOrders, &m.ClosedSecs,
		&m.FulfilledOrders, &m.FulfilledSecs, &m.SameDay, &m.Within48h)
	var out []ports.DailyRow
	err := r.query(ctx, q, []any{rg.Currency, rg.From, rg.To}, dest, func() error {
		row := ports.DailyRow{Dims: make(map[string]string, len(dims)), Measures: m}
		for i, d := range dims {
			row.Dims[d] = vals[i]
		}
		out = append(out, row)
		return nil
	})
	return out, err
}

// productsQuery is the sums per product over rg (of a product type when given), with
// the cost of the kept quantity at each variant's cost price and the product's title
// and type; a line's title (and SKU) stands in for a product the product events never
// showed: one index lookup each, in the same statement. Its columns: product_id,
// title, product_type, sku, orders, q, rq, rev, ref, cost, known.
func productsQuery(rg ports.Range, productType string) (string, []any) {
	// per variant first (at most the catalog's size), then the costs and titles
	rows, args := productRows(rg)
	q := `SELECT a.product_id AS product_id,
		COALESCE(NULLIF(MAX(p.title), ''), (SELECT l.title FROM statistics_order_lines l WHERE l.product_id = a.product_id LIMIT 1), '') AS title,
		COALESCE(MAX(p.product_type), '') AS product_type,
		COALESCE(NULLIF(MAX(v.sku), ''), CASE WHEN COALESCE(MAX(p.title), '') = '' THEN
			(SELECT l.sku FROM statistics_order_lines l WHERE l.product_id = a.product_id LIMIT 1) END, '') AS sku,
		` + sum("a.orders") + ` AS orders, ` + sum("a.q") + ` AS q, ` + sum("a.rq") + ` AS rq, ` + sum("a.rev") + ` AS rev, ` + sum("a.ref") + ` AS ref,
		` + sum("(a.q - a.rq) * COALESCE(v.cost, 0)") + ` AS cost, MIN(CASE WHEN v.cost IS NULL THEN 0 ELSE 1 END) AS known
		FROM (SELECT product_id, variant_id, SUM(orders) AS orders, SUM(q) AS q, SUM(rq) AS rq, SUM(rev) AS rev, SUM(ref) AS ref
			FROM (` + rows + `) d GROUP BY product_id, variant_id HAVING SUM(orders) > 0) a
		LEFT JOIN statistics_variants v ON v.variant_id = a.variant_id
		LEFT JOIN statistics_products p ON p.product_id = a.product_id`
	if productType != "" {
		q += ` WHERE p.product_type = ?`
		args = append(args, productType)
	}
	return q + ` GROUP BY a.product_id`, args
}

// productRowDest scans a productsQuery row into row (known: its known column).
func productRowDest(row *ports.ProductRow, known *int64) []any {
	return []any{&row.ProductID, &row.Title, &row.ProductType, &row.SKU, &row.Orders, &row.Quantity,
		&row.RefundedQty, &row.Revenue, &row.Refunded, &row.Cost, known}
}

// Products implements ports.Repository: the sums per product, the cost of the kept
// quantity at each variant's cost price, and the product's title and type.
func (r *Repository) Products(ctx context.Context, rg ports.Range, productType string) ([]ports.ProductRow, error) {
	q, args := productsQuery(rg, productType)
	var row ports.ProductRow
	var known int64
	var out []ports.ProductRow
	err := r.query(ctx, q, args, productRowDest(&row, &known), func() error {
		row.CostKnown = known == 1
		out = append(out, row)
		return nil
	})
	return out, err
}

// productsOrder is ProductsTop's sort keys (descending), by sort_by.
var productsOrder = map[string]string{"revenue": "rev - ref", "quantity": "q - rq", "profit": "rev - ref - cost"}

// ProductsTop implements ports.Repository: the products computed once (a CTE), the
// first limit of them, and their sums per product type, in one statement, so that a
// period of thousands of products sends the report a few rows (docs/performance.md).
func (r *Repository) ProductsTop(ctx context.Context, rg ports.Range, productType, sortBy string, limit int) ([]ports.ProductRow, []ports.ProductTypeSums, error) {
	key, ok := productsOrder[sortBy]
	if !ok {
		return nil, nil, fmt.Errorf("statistics: products sorted by %q", sortBy)
	}
	prod, args := productsQuery(rg, productType)
	q := `WITH prod AS (` + prod + `)
		SELECT * FROM (SELECT 0 AS kind, product_id, title, product_type, sku, orders, q, rq, rev, ref, cost, known
			FROM prod ORDER BY ` + key + ` DESC, product_id LIMIT ?) t
		UNION ALL
		SELECT 1, '', '', product_type, '', COUNT(*), ` + sum("q") + `, ` + sum("rq") + `, ` + sum("rev") + `, ` + sum("ref") + `,
			` + sum("CASE WHEN known = 1 THEN cost ELSE 0 END") + `, ` + sum("CASE WHEN known = 1 THEN rev - ref ELSE 0 END") + `
		FROM prod GROUP BY product_type`
	var (
		kind, known int64
		row         ports.ProductRow
		top         []ports.ProductRow
		byType      []ports.ProductTypeSums
	)
	err := r.query(ctx, q, append(args, limit), append([]any{&kind}, productRowDest(&row, &known)...), func() error {
		if kind == 0 {
			row.CostKnown = known == 1
			top = append(top, row)
			return nil
		}
		// a type's row: orders counts its products, cost and known are the cost
		// and the net revenue of those with a known cost
		byType = append(byType, ports.ProductTypeSums{ProductType: row.ProductType, Products: row.Orders, Quantity: row.Quantity,
			RefundedQty: row.RefundedQty, Revenue: row.Revenue, Refunded: row.Refunded, KnownCost: row.Cost, KnownNet: known})
		return nil
	})
	return top, byType, err
}

// TopProducts implements ports.Repository: the sums alone, sorted and cut in SQL, with
// the few titles, in one statement.
func (r *Repository) TopProducts(ctx context.Context, rg ports.Range, limit int) ([]ports.ProductRow, error) {
	rows, args := productRows(rg)
	var row ports.ProductRow
	var out []ports.ProductRow
	err := r.query(ctx, `SELECT t.product_id, t.q, t.net, COALESCE(p.title,
			(SELECT l.title FROM statistics_order_lines l WHERE l.product_id = t.product_id LIMIT 1), '')
		FROM (SELECT product_id, `+sum("q - rq")+` AS q, `+sum("rev - ref")+` AS net FROM (`+rows+`) s
			GROUP BY product_id HAVING SUM(orders) > 0 ORDER BY net DESC, product_id LIMIT ?) t
		LEFT JOIN statistics_products p ON p.product_id = t.product_id
		ORDER BY t.net DESC, t.product_id`, append(args, limit),
		[]any{&row.ProductID, &row.Quantity, &row.Revenue, &row.Title}, func() error {
			out = append(out, row)
			return nil
		})
	return out, err
}

// Inventory implements ports.Repository (one statement).
func (r *Repository) Inventory(ctx context.Context, currency string) (ports.Inventory, error) {
	var inv ports.Inventory
	err := r.db.QueryRow(ctx, r.db.Rebind(`SELECT v.n, v.value, p.out_of_stock, p.low FROM
		(SELECT COUNT(*) AS n, `+sum("CASE WHEN v.inventory_quantity > 0 THEN v.inventory_quantity * COALESCE(v.cost, 0) ELSE 0 END")+` AS value
		 FROM statistics_variants v JOIN statistics_products p ON p.product_id = v.product_id WHERE p.currency = ?) v,
		(SELECT `+sum("CASE WHEN inventory_quantity <= 0 THEN 1 ELSE 0 END")+` AS out_of_stock, `+
		sum("CASE WHEN inventory_quantity > 0 AND inventory_quantity <= low_stock_threshold THEN 1 ELSE 0 END")+` AS low
		 FROM statistics_products WHERE currency = ? AND tracked) p`),
		[]any{currency, currency}, &inv.SKUs, &inv.Value, &inv.OutOfStock, &inv.LowStock)
	return inv, err
}

// Customers implements ports.Repository.
func (r *Repository) Customers(ctx context.Context, rg ports.Range, full bool, churnFrom, churnTo string) (ports.CustomerFigures, error) {
	f := ports.CustomerFigures{Sources: map[string]int64{}}
	// sums of the customers created per day (no count of every customer)
	err := r.db.QueryRow(ctx, r.db.Rebind(`SELECT `+sum("customers")+`, `+sum("CASE WHEN day >= ? THEN customers ELSE 0 END")+`
		FROM statistics_customer_days WHERE day <= ?`), []any{rg.From, rg.To}, &f.Total, &f.New)
	if err != nil {
		return f, err
	}
	var source string
	var n, bought int64
	err = r.query(ctx, `SELECT COALESCE(t.first_channel, ''), COUNT(*), `+sum("CASE WHEN t.first_day <= ? THEN 1 ELSE 0 END")+`
		FROM statistics_customers c LEFT JOIN statistics_customer_totals t ON t.customer_id = c.customer_id AND t.currency = ?
		WHERE c.day >= ? AND c.day <= ? GROUP BY COALESCE(t.first_channel, '')`,
		[]any{rg.To, rg.Currency, rg.From, rg.To}, []any{&source, &n, &bought}, func() error {
			if source == "" {
				source = "none"
			}
			f.Sources[source] += n
			f.NewBuyers += bought
			return nil
		})
	if err != nil {
		return f, err
	}
	if rg.Current {
		err = r.db.QueryRow(ctx, r.db.Rebind(`SELECT COUNT(*) FROM statistics_customer_totals
			WHERE currency = ? AND last_day >= ? AND first_day < ?`), []any{rg.Currency, rg.From, rg.From}, &f.Returning)
	} else {
		err = r.db.QueryRow(ctx, r.db.Rebind(`SELECT COUNT(DISTINCT o.customer_id) FROM statistics_orders o
			JOIN statistics_customer_totals t ON t.customer_id = o.customer_id AND t.currency = o.currency
			WHERE o.currency = ? AND o.day >= ? AND o.day <= ? AND o.customer_id <> '' AND o.status <> 'cancelled' AND t.first_day < ?`),
			[]any{rg.Currency, rg.From, rg.To, rg.From}, &f.Returning)
	}
	if err != nil || !full {
		return f, err
	}
	err = r.db.QueryRow(ctx, r.db.Rebind(`SELECT COUNT(*) FROM statistics_customer_totals
		WHERE currency = ? AND last_day >= ? AND last_day <= ?`), []any{rg.Currency, churnFrom, churnTo}, &f.Churned)
	if err != nil {
		return f, err
	}
	var t ports.CustomerTotal
	q, args := `SELECT t.orders, t.spent, t.first_at, t.last_at FROM statistics_customer_totals t
		WHERE t.currency = ? AND t.customer_id IN (SELECT DISTINCT o.customer_id FROM statistics_orders o
		WHERE o.currency = ? AND o.day >= ? AND o.day <= ? AND o.customer_id <> '' AND o.status <> 'cancelled')`,
		[]any{rg.Currency, rg.Currency, rg.From, rg.To}
	if rg.Current {
		q, args = `SELECT orders, spent, first_at, last_at FROM statistics_customer_totals WHERE currency = ? AND last_day >= ?`,
			[]any{rg.Currency, rg.From}
	}
	err = r.query(ctx, q, args, []any{&t.Orders, &t.Spent, &t.FirstAt, &t.LastAt}, func() error {
		f.Ordering = append(f.Ordering, t)
		return nil
	})
	return f, err
}

// TopCurrency implements ports.Repository.
func (r *Repository) TopCurrency(ctx context.Context, from, to string) (string, error) {
	var cur string
	var n int64
	err := r.db.QueryRow(ctx, r.db.Rebind(`SELECT currency, `+sum("orders")+` AS n FROM statistics_daily
		WHERE day >= ? AND day <= ? GROUP BY currency ORDER BY n DESC, currency LIMIT 1`), []any{from, to}, &cur, &n)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return cur, err
}

// ReplaceSegments implements ports.Repository (in ctx's transaction: readers see the
// old or the new memberships).
func (r *Repository) ReplaceSegments(ctx context.Context, currency, today string) (int64, error) {
	for _, t := range []string{"statistics_segments", "statistics_segment_runs"} {
		if err := r.exec(ctx, `DELETE FROM `+t); err != nil {
			return 0, err
		}
	}
	var n int64
	if err := r.db.QueryRow(ctx, r.db.Rebind(`SELECT COUNT(*) FROM statistics_customer_totals WHERE currency = ? AND orders > 0`),
		[]any{currency}, &n); err != nil {
		return 0, err
	}
	if err := r.exec(ctx, `INSERT INTO statistics_segment_runs (currency, buyers, today) VALUES (?, ?, ?)`, currency, n, today); err != nil {
		return 0, err
	}
	if err := r.exec(ctx, `INSERT INTO statistics_segments (segment, customer_id, currency, orders, spent)
		SELECT 'vip', customer_id, currency, orders, spent FROM statistics_customer_totals WHERE currency = ? AND orders > 0
		ORDER BY spent DESC, customer_id LIMIT ?`, currency, domain.VIPCount(n)); err != nil {
		return 0, err
	}
	days := func(d int) string { return shiftDay(today, -d) }
	// the recency segments exclude each other: dormant, at_risk, new, loyal
	rules := []struct {
		segment, where string
		args           []any
	}{
		{api.SegmentDormant, `last_day <= ?`, []any{days(domain.DormantDays)}},
		{api.SegmentAtRisk, `last_day <= ? AND last_day > ?`, []any{days(domain.AtRiskDays), days(domain.DormantDays)}},
		{api.SegmentNew, `last_day > ? AND first_day > ?`, []any{days(domain.AtRiskDays), days(domain.NewDays)}},
		{api.SegmentLoyal, `last_day > ? AND first_day <= ? AND orders >= ?`, []any{days(domain.AtRiskDays), days(domain.NewDays), domain.LoyalOrders}},
	}
	for _, rule := range rules {
		args := append([]any{rule.segment, currency}, rule.args...)
		if err := r.exec(ctx, `INSERT INTO statistics_segments (segment, customer_id, currency, orders, spent)
			SELECT ?, customer_id, currency, orders, spent FROM statistics_customer_totals WHERE currency = ? AND orders > 0 AND `+rule.where, args...); err != nil {
			return 0, err
		}
	}
	var total int64
	err := r.db.QueryRow(ctx, `SELECT COUNT(*) FROM statistics_segments`, nil, &total)
	return total, err
}

// InSegment implements ports.Repository.
func (r *Repository) InSegment(ctx context.Context, segment, customerID string) (bool, error) {
	var n int64
	err := r.db.QueryRow(ctx, r.db.Rebind(`SELECT COUNT(*) FROM statistics_segments WHERE segment = ? AND customer_id = ?`),
		[]any{segment, customerID}, &n)
	return n > 0, err
}

// Segments implements ports.Repository.
func (r *Repository) Segments(ctx context.Context, currency string) ([]ports.SegmentRow, int64, error) {
	var row ports.SegmentRow
	var out []ports.SegmentRow
	err := r.query(ctx, `SELECT segment, COUNT(*), `+sum("orders")+`, `+sum("spent")+` FROM statistics_segments
		WHERE currency = ? GROUP BY segment`, []any{currency}, []any{&row.Segment, &row.Count, &row.Orders, &row.Spent}, func() error {
		out = append(out, row)
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	var buyers int64
	err = r.db.QueryRow(ctx, r.db.Rebind(`SELECT buyers FROM statistics_segment_runs WHERE currency = ?`), []any{currency}, &buyers)
	if errors.Is(err, sql.ErrNoRows) {
		return out, 0, nil
	}
	return out, buyers, err
}

// Rebuild recomputes the rollups and the customer totals from the order records, and
// the customers per day from the customers (the full recomputation the incremental
// updates must equal; also the bench's seeding).
// Rows go in by currency and day, so a period's rows lie together in the table.
func (r *Repository) Rebuild(ctx context.Context) error {
	statements := []string{
		`DELETE FROM statistics_daily`,
		`INSERT INTO statistics_daily (day, currency, channel, payment_method, status, fulfillment, country, orders, items, gross,
		discounts, refunded, closed_orders, closed_secs, fulfilled_orders, fulfilled_secs, same_day, within_48h)
		SELECT day, currency, channel, payment_method, status, fulfillment, country, COUNT(*), ` + sum("items") + `, ` + sum("gross") + `,
		` + sum("discounts") + `, ` + sum("refunded") + `, ` + sum("CASE WHEN closed_at > 0 THEN 1 ELSE 0 END") + `,
		` + sum("CASE WHEN closed_at > created_at THEN closed_at - created_at ELSE 0 END") + `,
		` + sum("CASE WHEN fulfilled_at > 0 THEN 1 ELSE 0 END") + `,
		` + sum("CASE WHEN fulfilled_at > created_at THEN fulfilled_at - created_at ELSE 0 END") + `,
		` + sum("CASE WHEN fulfilled_at > 0 AND same_day = 1 THEN 1 ELSE 0 END") + `,
		` + sum("CASE WHEN fulfilled_at > 0 AND fulfilled_at - created_at <= 172800 THEN 1 ELSE 0 END") + `
		FROM statistics_orders GROUP BY day, currency, channel, payment_method, status, fulfillment, country
		ORDER BY currency, day`,
		`DELETE FROM statistics_product_daily`,
		`INSERT INTO statistics_product_daily (day, currency, product_id, variant_id, orders, quantity, refunded_quantity, revenue, refunded)
		SELECT day, currency, product_id, variant_id, COUNT(*), ` + sum("q") + `, ` + sum("rq") + `, ` + sum("rev") + `, ` + sum("ref") + `
		FROM (SELECT o.day, o.currency, l.product_id, l.variant_id, SUM(l.quantity) AS q, SUM(l.refunded_quantity) AS rq,
			SUM(l.revenue) AS rev, SUM(l.refunded) AS ref
			FROM statistics_order_lines l JOIN statistics_orders o ON o.order_id = l.order_id
			WHERE o.status <> 'cancelled' GROUP BY o.order_id, o.day, o.currency, l.product_id, l.variant_id) per_order
		GROUP BY day, currency, product_id, variant_id ORDER BY currency, day`,
		`DELETE FROM statistics_product_monthly`,
		`INSERT INTO statistics_product_monthly (month, currency, product_id, variant_id, orders, quantity, refunded_quantity, revenue, refunded)
		SELECT substr(day, 1, 7), currency, product_id, variant_id, ` + sum("orders") + `, ` + sum("quantity") + `,
		` + sum("refunded_quantity") + `, ` + sum("revenue") + `, ` + sum("refunded") + `
		FROM statistics_product_daily GROUP BY substr(day, 1, 7), currency, product_id, variant_id ORDER BY currency, substr(day, 1, 7)`,
		`DELETE FROM statistics_customer_days`,
		`INSERT INTO statistics_customer_days (day, customers) SELECT day, COUNT(*) FROM statistics_customers GROUP BY day`,
		`DELETE FROM statistics_customer_totals`,
		`INSERT INTO statistics_customer_totals (customer_id, currency, orders, spent, first_at, last_at, first_day, last_day, first_channel)
		SELECT customer_id, currency, COUNT(*), ` + sum("gross - refunded") + `, MIN(created_at), MAX(created_at), MIN(day), MAX(day),
		(SELECT f.channel FROM statistics_orders f WHERE f.customer_id = o.customer_id AND f.currency = o.currency
		 AND f.status <> 'cancelled' ORDER BY f.created_at, f.order_id LIMIT 1)
		FROM statistics_orders o WHERE customer_id <> '' AND status <> 'cancelled' GROUP BY customer_id, currency`,
	}
	for _, q := range statements {
		if err := r.exec(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// SaveSubscription implements ports.Repository.
func (r *Repository) SaveSubscription(ctx context.Context, s domain.Subscription) error {
	return r.exec(ctx, `INSERT INTO statistics_subscriptions (subscription_id, version, currency, status, mrr, started_day, ended_day)
		VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (subscription_id) DO UPDATE SET version = excluded.version, currency = excluded.currency,
		status = excluded.status, mrr = excluded.mrr, started_day = excluded.started_day, ended_day = excluded.ended_day
		WHERE statistics_subscriptions.version <= excluded.version`,
		s.ID, s.Version, s.Currency, s.Status, s.MRR, s.StartedDay, s.EndedDay)
}

// Subscriptions implements ports.Repository.
func (r *Repository) Subscriptions(ctx context.Context, currency, from, to string) (ports.SubscriptionFigures, error) {
	var f ports.SubscriptionFigures
	err := r.db.QueryRow(ctx, r.db.Rebind(`SELECT
		`+sum("CASE WHEN status IN ('active', 'past_due') THEN 1 ELSE 0 END")+`,
		`+sum("CASE WHEN status IN ('active', 'past_due') THEN mrr ELSE 0 END")+`,
		`+sum("CASE WHEN ended_day >= ? AND ended_day <= ? THEN 1 ELSE 0 END")+`,
		`+sum("CASE WHEN started_day < ? AND (ended_day = '' OR ended_day >= ?) THEN 1 ELSE 0 END")+`
		FROM statistics_subscriptions WHERE currency = ?`), []any{from, to, from, from, currency},
		&f.Active, &f.MRR, &f.Churned, &f.AtStart)
	return f, err
}
