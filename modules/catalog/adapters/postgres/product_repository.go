package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
	"gorm.io/gorm"

	"github.com/gocommerce/commerce/modules/catalog/api"
	"github.com/gocommerce/commerce/modules/catalog/domain"
	"github.com/gocommerce/commerce/modules/catalog/ports"
	"github.com/gocommerce/commerce/platform/db"
)

// ProductRepository implements ports.ProductRepository on the products and
// product_tags tables.
type ProductRepository struct {
	db *db.DB
	// The single-product reads in the dialect's bind parameters (scanned explicitly).
	byID, byIDForUpdate, bySlug string
	// A product with one variant: the default one, or the one with an id (GetWithVariant).
	withDefault, withVariant string
	// The product of a variant id with that variant (GetByVariant).
	byVariant string
}

var _ ports.ProductRepository = (*ProductRepository)(nil)

// NewProductRepository builds the repository.
func NewProductRepository(d *db.DB) *ProductRepository {
	selectProduct := "SELECT " + productColumns + " FROM products WHERE "
	withVariant := func(join string) string {
		return d.Rebind("SELECT " + productColumns + ", " + firstImageURL("products") + ", " + joinedVariantColumns +
			" FROM products LEFT JOIN product_variants v ON v.product_id = products.id AND " + join +
			" WHERE products.id = ? ORDER BY v.created_at ASC, v.id ASC LIMIT 1")
	}
	r := &ProductRepository{
		db:            d,
		byID:          d.Rebind(selectProduct + "products.id = ?"),
		byIDForUpdate: d.Rebind(selectProduct + "products.id = ?"),
		bySlug:        d.Rebind(selectProduct + "products.slug = ?"),
		withDefault:   withVariant("v.is_default"),
		withVariant:   withVariant("v.id = ?"),
		byVariant: d.Rebind("SELECT " + productColumns + ", " + firstImageURL("products") + ", " + joinedVariantColumns +
			" FROM product_variants v JOIN products ON products.id = v.product_id WHERE v.id = ?"),
	}
	if d.Dialect() == db.Postgres {
		// SQLite has no row locks: its writers are serialised.
		r.byIDForUpdate += " FOR UPDATE"
	}
	return r
}

// seedBatchSize is the rows per INSERT when seeding.
const seedBatchSize = 500

// Create inserts a product and its tag rows.
func (r *ProductRepository) Create(ctx context.Context, p *domain.Product) error {
	row := fromProduct(p)
	conn := r.db.Conn(ctx)
	if err := conn.Create(&row).Error; err != nil {
		if db.IsDuplicate(err) {
			return domain.ErrProductSlugTaken
		}
		return fmt.Errorf("catalog: insert product: %w", err)
	}
	return r.writeTags(conn, p, false)
}

func (r *ProductRepository) writeTags(conn *gorm.DB, p *domain.Product, replace bool) error {
	if replace {
		if err := conn.Where("product_id = ?", p.ID).Delete(&productTagRow{}).Error; err != nil {
			return fmt.Errorf("catalog: delete tags: %w", err)
		}
	}
	if tags := tagRows(p); len(tags) > 0 {
		if err := conn.Create(&tags).Error; err != nil {
			return fmt.Errorf("catalog: insert tags: %w", err)
		}
	}
	return nil
}

// Update saves every stored field and rewrites the tag rows.
func (r *ProductRepository) Update(ctx context.Context, p *domain.Product) error {
	row := fromProduct(p)
	conn := r.db.Conn(ctx)
	res := conn.Model(&row).Select("*").Updates(&row)
	if res.Error != nil {
		if db.IsDuplicate(res.Error) {
			return domain.ErrProductSlugTaken
		}
		return fmt.Errorf("catalog: update product: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return domain.ErrProductNotFound
	}
	return r.writeTags(conn, p, true)
}

// Delete removes a product; variants, images, tags and memberships cascade.
func (r *ProductRepository) Delete(ctx context.Context, id string) error {
	if err := r.db.Conn(ctx).Where("id = ?", id).Delete(&productRow{}).Error; err != nil {
		return fmt.Errorf("catalog: delete product: %w", err)
	}
	return nil
}

// Get loads a product by id.
func (r *ProductRepository) Get(ctx context.Context, id string) (*domain.Product, error) {
	return r.first(ctx, r.byID, id)
}

// GetForUpdate loads a product and locks its row (Postgres).
func (r *ProductRepository) GetForUpdate(ctx context.Context, id string) (*domain.Product, error) {
	return r.first(ctx, r.byIDForUpdate, id)
}

// GetBySlug loads a product by slug.
func (r *ProductRepository) GetBySlug(ctx context.Context, slug string) (*domain.Product, error) {
	return r.first(ctx, r.bySlug, slug)
}

// first runs a single-product query (one parameter) and scans its row.
func (r *ProductRepository) first(ctx context.Context, query string, arg any) (*domain.Product, error) {
	var row productRow
	err := r.db.QueryRow(ctx, query, []any{arg}, row.dest()...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, domain.ErrProductNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("catalog: select product: %w", err)
	}
	return row.toDomain(), nil
}

// GetMany loads the products found among ids.
func (r *ProductRepository) GetMany(ctx context.Context, ids []string) ([]*domain.Product, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	query := r.db.Rebind("SELECT " + productColumns + " FROM products WHERE products.id IN (" + db.Params(len(ids)) + ")")
	out := make([]*domain.Product, 0, len(ids))
	var row productRow
	if err := r.db.Query(ctx, query, anySlice(ids), row.dest(), func() error {
		out = append(out, row.toDomain())
		return nil
	}); err != nil {
		return nil, fmt.Errorf("catalog: select products: %w", err)
	}
	return out, nil
}

// LockMany loads the products found among ids and locks them in id order.
func (r *ProductRepository) LockMany(ctx context.Context, ids []string) ([]*domain.Product, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	query := "SELECT " + productColumns + " FROM products WHERE products.id IN (" + db.Params(len(ids)) + ") ORDER BY products.id"
	if r.db.Dialect() == db.Postgres {
		query += " FOR UPDATE"
	}
	out := make([]*domain.Product, 0, len(ids))
	var row productRow
	if err := r.db.Query(ctx, r.db.Rebind(query), anySlice(ids), row.dest(), func() error {
		out = append(out, row.toDomain())
		return nil
	}); err != nil {
		return nil, fmt.Errorf("catalog: lock products: %w", err)
	}
	return out, nil
}

// GetWithVariants loads the products found among ids with their variants and the URL
// of their first image, in one statement: products LEFT JOIN variants, one row per
// variant, the image URL a scalar subquery.
func (r *ProductRepository) GetWithVariants(ctx context.Context, ids []string) ([]ports.ProductWithVariants, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	query := r.db.Rebind("SELECT " + productColumns + ", " + firstImageURL("products") + ", " + joinedVariantColumns +
		" FROM products LEFT JOIN product_variants v ON v.product_id = products.id" +
		" WHERE products.id IN (" + db.Params(len(ids)) + ")" +
		" ORDER BY products.id, v.is_default DESC, v.created_at ASC, v.id ASC")
	var (
		out  []ports.ProductWithVariants
		prow productRow
		url  sql.NullString
		vrow joinedVariant
	)
	dest := append(append(prow.dest(), &url), vrow.dest()...)
	if err := r.db.Query(ctx, query, anySlice(ids), dest, func() error {
		// Rows come grouped by product: a new id starts the next product.
		if n := len(out); n == 0 || out[n-1].Product.ID != prow.ID {
			out = append(out, ports.ProductWithVariants{Product: prow.toDomain(), ImageURL: url.String})
		}
		if v, ok := vrow.row(); ok {
			last := &out[len(out)-1]
			last.Variants = append(last.Variants, v.toDomain())
		}
		return nil
	}); err != nil {
		return nil, fmt.Errorf("catalog: select products with variants: %w", err)
	}
	return out, nil
}

// saleVariantColumns are SaleVariants' columns, in its scan's order.
const saleVariantColumns = "p.id, p.title, p.currency, p.taxable, p.inventory_management, p.low_stock_threshold, " +
	"v.id, v.title, v.sku, v.is_default, v.requires_shipping, v.price, v.weight, v.weight_unit, " +
	"CASE WHEN v.inventory_policy <> '' THEN v.inventory_policy ELSE p.inventory_policy END"

// SaleVariants loads the products' variants with what a sale needs (the narrow read
// of a checkout: GetWithVariants' descriptions, images and options left out).
func (r *ProductRepository) SaleVariants(ctx context.Context, ids []string) ([]api.SaleVariant, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	query := r.db.Rebind("SELECT " + saleVariantColumns + " FROM products p JOIN product_variants v ON v.product_id = p.id" +
		" WHERE p.id IN (" + db.Params(len(ids)) + ") ORDER BY p.id, v.is_default DESC, v.created_at ASC, v.id ASC")
	var (
		out     []api.SaleVariant
		v       api.SaleVariant
		tracked sql.NullString
	)
	dest := []any{&v.ProductID, &v.ProductTitle, &v.Currency, &v.Taxable, &tracked, &v.LowStockThreshold,
		&v.ID, &v.Title, &v.SKU, &v.IsDefault, &v.RequiresShipping, &v.Price, &v.Weight, &v.WeightUnit, &v.InventoryPolicy}
	if err := r.db.Query(ctx, query, anySlice(ids), dest, func() error {
		v.InventoryManagement = tracked.String
		out = append(out, v)
		return nil
	}); err != nil {
		return nil, fmt.Errorf("catalog: select sale variants: %w", err)
	}
	return out, nil
}

// GetWithVariant loads a product with one variant (the default one when variantID is
// "") and the URL of its first image, in one statement; Variants is empty when the
// product has no such variant. domain.ErrProductNotFound when the product is missing.
func (r *ProductRepository) GetWithVariant(ctx context.Context, productID, variantID string) (ports.ProductWithVariants, error) {
	query, args := r.withDefault, []any{productID}
	if variantID != "" {
		query, args = r.withVariant, []any{variantID, productID}
	}
	return r.withOneVariant(ctx, query, args, domain.ErrProductNotFound)
}

// GetByVariant loads the product a variant belongs to, with only that variant and the
// URL of its first image, in one statement; domain.ErrVariantNotFound when no variant
// has the id.
func (r *ProductRepository) GetByVariant(ctx context.Context, variantID string) (ports.ProductWithVariants, error) {
	out, err := r.withOneVariant(ctx, r.byVariant, []any{variantID}, domain.ErrVariantNotFound)
	if err == nil && len(out.Variants) == 0 {
		return ports.ProductWithVariants{}, domain.ErrVariantNotFound
	}
	return out, err
}

// withOneVariant runs a statement selecting productColumns, the first image's URL and
// joinedVariantColumns for at most one row; no row is notFound.
func (r *ProductRepository) withOneVariant(ctx context.Context, query string, args []any, notFound error) (ports.ProductWithVariants, error) {
	var (
		prow productRow
		url  sql.NullString
		vrow joinedVariant
	)
	err := r.db.QueryRow(ctx, query, args, append(append(prow.dest(), &url), vrow.dest()...)...)
	if errors.Is(err, sql.ErrNoRows) {
		return ports.ProductWithVariants{}, notFound
	}
	if err != nil {
		return ports.ProductWithVariants{}, fmt.Errorf("catalog: select product with variant: %w", err)
	}
	out := ports.ProductWithVariants{Product: prow.toDomain(), ImageURL: url.String}
	if v, ok := vrow.row(); ok {
		out.Variants = []*domain.Variant{v.toDomain()}
	}
	return out, nil
}

// firstImageURL selects the URL of the first image of the product in table (NULL
// without images).
func firstImageURL(table string) string {
	return "(SELECT pi.url FROM product_images pi WHERE pi.product_id = " + table + ".id AND pi.position = 1 LIMIT 1)"
}

// pageColumns are productColumns of the page subquery of List.
var pageColumns = strings.ReplaceAll(productColumns, "products.", "page.")

func anySlice(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// SlugsLike lists the slugs equal to base or starting with base-.
func (r *ProductRepository) SlugsLike(ctx context.Context, base string) ([]string, error) {
	return slugsLike(r.db.Conn(ctx), "products", base)
}

func slugsLike(conn *gorm.DB, table, base string) ([]string, error) {
	var out []string
	err := conn.Table(table).Where("slug = ? OR slug LIKE ? ESCAPE '\\'", base, escapeLike(base)+"-%").Pluck("slug", &out).Error
	if err != nil {
		return nil, fmt.Errorf("catalog: select %s slugs: %w", table, err)
	}
	return out, nil
}

// escapeLike escapes LIKE wildcards (escape character backslash).
func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// SumInventoryQuantities sets each product's stock total to the sum of its variants'
// (updated_at is left alone: stock moves are not product edits) and returns the totals.
func (r *ProductRepository) SumInventoryQuantities(ctx context.Context, ids []string) (map[string]int, error) {
	out := make(map[string]int, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	query := r.db.Rebind("UPDATE products SET inventory_quantity = (SELECT COALESCE(SUM(v.inventory_quantity), 0)" +
		" FROM product_variants v WHERE v.product_id = products.id) WHERE id IN (" + db.Params(len(ids)) + ") RETURNING id, inventory_quantity")
	var id string
	var total int64
	err := r.db.ExecQuery(ctx, query, anySlice(ids), []any{&id, &total}, func() error {
		out[id] = int(total)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("catalog: set product stock: %w", err)
	}
	return out, nil
}

// Seed inserts products, their tag rows and variants in batches.
func (r *ProductRepository) Seed(ctx context.Context, products []*domain.Product, variants []*domain.Variant) error {
	conn := r.db.Conn(ctx)
	prows := make([]productRow, 0, len(products))
	var trows []productTagRow
	for _, p := range products {
		prows = append(prows, fromProduct(p))
		trows = append(trows, tagRows(p)...)
	}
	vrows := make([]variantRow, 0, len(variants))
	for _, v := range variants {
		vrows = append(vrows, fromVariant(v))
	}
	if len(prows) > 0 {
		if err := conn.CreateInBatches(prows, seedBatchSize).Error; err != nil {
			return fmt.Errorf("catalog: seed products: %w", err)
		}
	}
	if len(trows) > 0 {
		if err := conn.CreateInBatches(trows, seedBatchSize*2).Error; err != nil {
			return fmt.Errorf("catalog: seed tags: %w", err)
		}
	}
	if len(vrows) > 0 {
		if err := conn.CreateInBatches(vrows, seedBatchSize).Error; err != nil {
			return fmt.Errorf("catalog: seed variants: %w", err)
		}
	}
	return nil
}

// priceExpr is the price as a comparable number: numeric in Postgres; SQLite keeps money
// as TEXT, so it compares CAST(price AS REAL) (an expression index serves it).
func (r *ProductRepository) priceExpr() string {
	if r.db.Dialect() == db.Postgres {
		return "products.price"
	}
	return "CAST(products.price AS REAL)"
}

func (r *ProductRepository) priceArg(d decimal.Decimal) any {
	if r.db.Dialect() == db.Postgres {
		return d.String()
	}
	return d.InexactFloat64()
}

// Count counts the products matching f.
func (r *ProductRepository) Count(ctx context.Context, f ports.ProductFilter) (int64, error) {
	var total int64
	if err := r.matching(ctx, f).Count(&total).Error; err != nil {
		return 0, fmt.Errorf("catalog: count products: %w", err)
	}
	return total, nil
}

// matching is the products query filtered by f (no order, no page).
func (r *ProductRepository) matching(ctx context.Context, f ports.ProductFilter) *gorm.DB {
	pg := r.db.Dialect() == db.Postgres
	q := r.db.Conn(ctx).Table("products")
	if f.Status != "" {
		q = q.Where("products.status = ?", f.Status)
	}
	if f.ProductType != "" {
		q = q.Where("products.product_type = ?", f.ProductType)
	}
	if f.Vendor != "" {
		q = q.Where("products.vendor = ?", f.Vendor)
	}
	if f.IsFeatured != nil {
		q = q.Where("products.is_featured = ?", *f.IsFeatured)
	}
	if f.MinPrice != nil {
		q = q.Where(r.priceExpr()+" >= ?", r.priceArg(*f.MinPrice))
	}
	if f.MaxPrice != nil {
		q = q.Where(r.priceExpr()+" <= ?", r.priceArg(*f.MaxPrice))
	}
	if len(f.Tags) > 0 {
		q = q.Where("EXISTS (SELECT 1 FROM product_tags pt WHERE pt.product_id = products.id AND pt.tag IN ?)", f.Tags)
	}
	if len(f.IDs) > 0 {
		q = q.Where("products.id IN ?", f.IDs)
	}
	q = db.Between(q, "products.created_at", f.CreatedAfter, f.CreatedBefore)
	if f.InventoryStatus != "" {
		q = q.Where("products.stock_status = ?", f.InventoryStatus)
	}
	if c := f.Collection; c != nil {
		if c.CollectionType == domain.CollectionSmart {
			for _, rule := range c.Rules {
				sql, args := r.ruleSQL(rule)
				q = q.Where(sql, args...)
			}
		} else {
			q = q.Joins("JOIN collection_products cp ON cp.product_id = products.id AND cp.collection_id = ?", c.ID)
		}
	}
	if f.Query != "" {
		pattern := "%" + escapeLike(strings.ToLower(f.Query)) + "%"
		switch {
		case pg && len([]rune(f.Query)) >= 3:
			q = q.Where("(products.search_vector @@ websearch_to_tsquery('english', ?) OR products.search_text LIKE ? ESCAPE '\\')", f.Query, pattern)
		case pg:
			q = q.Where("products.search_vector @@ websearch_to_tsquery('english', ?)", f.Query)
		default:
			q = q.Where("products.search_text LIKE ? ESCAPE '\\'", pattern)
		}
	}
	return q
}

// List returns a page of products matching f, each with its first image's URL, in one
// statement built by gorm and scanned explicitly. The page is a subquery and the image
// URL is looked up in the outer query: a scalar subquery beside the page query would run
// for every row the OFFSET skips too.
func (r *ProductRepository) List(ctx context.Context, f ports.ProductFilter) ([]ports.ListedProduct, error) {
	dir := "ASC"
	if f.Desc {
		dir = "DESC"
	}
	// The sort keys, most significant first; products.id breaks the ties. The page
	// selects them as sort_0, sort_1 ... so that the outer query keeps its order.
	var (
		keys []string
		vars []any
	)
	switch f.Sort {
	case ports.SortTitle:
		keys = []string{"products.title"}
	case ports.SortPrice:
		keys = []string{r.priceExpr()}
	case ports.SortUpdatedAt:
		keys = []string{"products.updated_at"}
	case ports.SortPosition:
		if f.Collection != nil && f.Collection.CollectionType == domain.CollectionManual {
			keys = []string{"cp.position"}
		} else {
			keys = []string{"products.created_at"}
		}
	case ports.SortRelevance:
		if r.db.Dialect() == db.Postgres {
			keys = []string{"ts_rank(products.search_vector, websearch_to_tsquery('english', ?))"}
			vars = []any{f.Query}
		}
		keys = append(keys, "products.created_at")
	default:
		keys = []string{"products.created_at"}
	}
	var selected, pageOrder, outerOrder strings.Builder
	selected.WriteString(productColumns)
	for i, k := range keys {
		alias := "sort_" + strconv.Itoa(i)
		fmt.Fprintf(&selected, ", %s AS %s", k, alias)
		fmt.Fprintf(&pageOrder, "%s %s, ", alias, dir)
		fmt.Fprintf(&outerOrder, "page.%s %s, ", alias, dir)
	}
	pageOrder.WriteString("products.id " + dir)
	outerOrder.WriteString("page.id " + dir)
	page := r.matching(ctx, f).Select(selected.String(), vars...).Order(pageOrder.String()).Offset(f.Offset).Limit(f.Limit)
	list := r.db.Conn(ctx).Table("(?) AS page", page).Select(pageColumns + ", " + firstImageURL("page")).Order(outerOrder.String())
	// gorm builds the statement; it runs as a hot read (db.Query: pgx, in turn).
	stmt := list.Session(&gorm.Session{DryRun: true}).Find(&[]map[string]any{}).Statement
	if stmt.Error != nil {
		return nil, fmt.Errorf("catalog: list products: %w", stmt.Error)
	}
	out := make([]ports.ListedProduct, 0, max(f.Limit, 0))
	var (
		row productRow
		url sql.NullString
	)
	if err := r.db.Query(ctx, stmt.SQL.String(), stmt.Vars, append(row.dest(), &url), func() error {
		out = append(out, ports.ListedProduct{Product: row.toDomain(), ImageURL: url.String})
		return nil
	}); err != nil {
		return nil, fmt.Errorf("catalog: list products: %w", err)
	}
	return out, nil
}

// ruleSQL translates a smart collection rule (validated by the domain) to a condition
// on products; text comparisons ignore case.
func (r *ProductRepository) ruleSQL(rule domain.Rule) (string, []any) {
	cond := strings.ToLower(rule.Condition)
	switch rule.Column {
	case domain.RuleTag:
		sql := "EXISTS (SELECT 1 FROM product_tags pt WHERE pt.product_id = products.id AND pt.tag = ?)"
		if rule.Relation == domain.RelNotEquals {
			sql = "NOT " + sql
		}
		return sql, []any{cond}
	case domain.RulePrice, domain.RuleInventoryQuantity:
		d, _ := decimal.NewFromString(rule.Condition) // validated by the domain
		expr, arg := "products.inventory_quantity", any(d.IntPart())
		if rule.Column == domain.RulePrice {
			expr, arg = r.priceExpr(), r.priceArg(d)
		}
		op := map[string]string{domain.RelEquals: "=", domain.RelNotEquals: "<>", domain.RelGreaterThan: ">", domain.RelLessThan: "<"}[rule.Relation]
		return expr + " " + op + " ?", []any{arg}
	}
	col := map[string]string{domain.RuleTitle: "products.title", domain.RuleProductType: "products.product_type", domain.RuleVendor: "products.vendor"}[rule.Column]
	lower := "LOWER(" + col + ")"
	esc := escapeLike(cond)
	switch rule.Relation {
	case domain.RelEquals:
		return lower + " = ?", []any{cond}
	case domain.RelNotEquals:
		return lower + " <> ?", []any{cond}
	case domain.RelContains:
		return lower + " LIKE ? ESCAPE '\\'", []any{"%" + esc + "%"}
	case domain.RelNotContains:
		return lower + " NOT LIKE ? ESCAPE '\\'", []any{"%" + esc + "%"}
	case domain.RelStartsWith:
		return lower + " LIKE ? ESCAPE '\\'", []any{esc + "%"}
	default: // ends_with
		return lower + " LIKE ? ESCAPE '\\'", []any{"%" + esc}
	}
}
