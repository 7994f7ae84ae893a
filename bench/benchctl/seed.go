package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"
	"golang.org/x/sync/errgroup"

	"github.com/gocommerce/commerce/modules/catalog"
	"github.com/gocommerce/commerce/modules/catalog/adapters/noorders"
	catalogpg "github.com/gocommerce/commerce/modules/catalog/adapters/postgres"
	"github.com/gocommerce/commerce/modules/catalog/app"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/events"
)

// cmdSeedCatalog seeds products through the catalog module's own seeding use case
// (app.Service.SeedProducts: the catalog's domain rules, its repositories, its batched
// transactions), wired as catalog.ProviderSet wires it, against the configuration the
// server uses (COMMERCE_* / DATABASE_URL from the environment). It writes the product
// and variant ids for the load generator.
func cmdSeedCatalog(args []string) error {
	fs := flag.NewFlagSet("seed-catalog", flag.ExitOnError)
	count := fs.Int("products", 10000, "products")
	variants := fs.Int("variants", 3, "explicit variants per product (sizes)")
	stock := fs.Int("stock", 1000000, "stock of every variant (large: the run never sells out)")
	currency := fs.String("currency", "USD", "currency of every product")
	out := fs.String("out", "catalog.json", "ids file to write")
	configPath := fs.String("config", "", "commerce configuration file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg, err := config.Load(*configPath)
	if err != nil {
		return err
	}
	if !cfg.Postgres() {
		return errors.New("seed-catalog: DATABASE_URL must name a PostgreSQL database")
	}
	d, closeDB, err := db.Open(cfg, zap.NewNop())
	if err != nil {
		return err
	}
	defer closeDB()
	storage, err := catalog.NewImageStorage(cfg)
	if err != nil {
		return err
	}
	svc := app.NewService(catalog.NewSettings(cfg), d, app.Stores{
		Products:    catalogpg.NewProductRepository(d),
		Variants:    catalogpg.NewVariantRepository(d),
		Images:      catalogpg.NewImageRepository(d),
		Collections: catalogpg.NewCollectionRepository(d),
	}, storage, noorders.New(), events.NewOutbox(d), clock.New(), zap.NewNop())

	ctx := context.Background()
	start := time.Now()
	ids, err := svc.SeedProducts(ctx, app.SeedCommand{Count: *count, VariantsPerProduct: *variants, Currency: *currency, Quantity: stock})
	if err != nil {
		return err
	}
	secs := time.Since(start).Seconds()
	seedInventoryLevels(ctx, d, *stock)

	// The variant ids, read back in one query.
	type pair struct{ ProductID, ID string }
	var pairs []pair
	if err := d.Conn(ctx).Raw(`SELECT product_id::text AS product_id, id::text AS id FROM product_variants ORDER BY product_id, created_at, id`).
		Scan(&pairs).Error; err != nil {
		return err
	}
	byProduct := make(map[string][]string, len(ids))
	for _, p := range pairs {
		byProduct[p.ProductID] = append(byProduct[p.ProductID], p.ID)
	}
	f := catalogFile{Currency: *currency, Seconds: secs}
	for _, id := range ids {
		f.Products = append(f.Products, productEntry{ID: id, Variants: byProduct[id]})
	}
	fmt.Printf("seeded %d products with %d variants each in %.1fs\n", len(ids), *variants, secs)
	return writeJSON(*out, f)
}

// seedInventoryLevels gives every seeded variant its stock in the inventory module too
// (the catalog's seed sets only the catalog's inventory_quantity and no inventory
// subscriber runs here): without a level a reservation (checkout complete) finds
// nothing available. Not fatal: the other scenarios do not need it.
func seedInventoryLevels(ctx context.Context, d *db.DB, stock int) {
	err := d.Conn(ctx).Exec(`INSERT INTO inventory_products (product_id, product_name, low_stock_threshold, created_at, updated_at)
SELECT id, title, 0, now(), now() FROM products ON CONFLICT DO NOTHING`).Error
	if err == nil {
		err = d.Conn(ctx).Exec(`INSERT INTO inventory_levels (id, product_id, variant_id, location_id, available, reserved, incoming, created_at, updated_at)
SELECT gen_random_uuid(), product_id, id, '00000000-0000-4000-8000-000000000001', ?, 0, 0, now(), now()
FROM product_variants ON CONFLICT DO NOTHING`, stock).Error
	}
	if err != nil {
		fmt.Printf("seed-catalog: inventory levels not seeded (checkout will find no stock): %v\n", err)
	}
}

// cmdSeedHTTP seeds through the server's HTTP API: a coupon (admin key), customers
// (registration and login) and each customer's cart with two items. A missing API
// (the router's own 404) is recorded, not fatal, so that the run goes on today and picks
// the scenario up once the module is wired.
func cmdSeedHTTP(args []string) error {
	fs := flag.NewFlagSet("seed-http", flag.ExitOnError)
	server := fs.String("server", "127.0.0.1:8080", "commerce host:port")
	key := fs.String("key", "", "admin API key")
	catalogPath := fs.String("catalog", "catalog.json", "seed-catalog output")
	customers := fs.Int("customers", 1000, "customers to register")
	concurrency := fs.Int("concurrency", 16, "parallel requests")
	out := fs.String("out", "state.json", "state file to write")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var cat catalogFile
	if err := readJSON(*catalogPath, &cat); err != nil {
		return err
	}
	if len(cat.Products) == 0 {
		return errors.New("seed-http: empty catalog")
	}
	start := time.Now()
	admin := bearer(*key)
	k := newConn(*server)
	defer k.close()

	// The key and the catalog answer.
	if _, err := k.doJSON("GET", "/api/v1/products/"+cat.Products[0].ID, nil, nil, admin); err != nil {
		return fmt.Errorf("seed-http: reading a seeded product: %w", err)
	}

	st := stateFile{}
	// The coupon: 10% off, no minimum, no usage limit.
	coupon := map[string]any{
		"code": "BENCH10", "type": "percentage", "value": "10", "description": "benchmark: 10% off",
		"is_active": true, "starts_at": time.Now().UTC().Add(-time.Hour).Format(time.RFC3339),
	}
	r, err := k.do("POST", "/api/v1/coupons", mustJSON(coupon), admin)
	switch {
	case err != nil:
		return err
	case routeMissing(r):
		st.CouponsMissing = "endpoint missing (POST /api/v1/coupons)"
	case r.status == 201:
		st.Coupon = "BENCH10"
	default:
		return fmt.Errorf("seed-http: create coupon: %d %s", r.status, truncate(r.body, 300))
	}

	// Customers: register, then log in for an access token.
	st.Customers = make([]customer, *customers)
	rng := newRNG(1, 2)
	for i := range st.Customers {
		c := &st.Customers[i]
		c.Email = fmt.Sprintf("bench-%04d@example.com", i)
		for j := 0; j < 5; j++ { // five products of the catalog: carts stay small
			p := cat.Products[rng.IntN(len(cat.Products))]
			it := item{ProductID: p.ID}
			if len(p.Variants) > 1 {
				it.VariantID = p.Variants[rng.IntN(len(p.Variants))]
			}
			c.Items = append(c.Items, it)
		}
	}
	if err := inParallel(*concurrency, len(st.Customers), *server, func(k *conn, i int) error {
		c := &st.Customers[i]
		body := map[string]any{"email": c.Email, "password": "benchpass1", "first_name": "Bench", "last_name": fmt.Sprintf("Customer %d", i)}
		if _, err := k.doJSON("POST", "/api/v1/auth/register", body, nil); err != nil {
			return err
		}
		var tok map[string]any
		if _, err := k.doJSON("POST", "/api/v1/auth/login", map[string]any{"email": c.Email, "password": "benchpass1"}, &tok); err != nil {
			return err
		}
		c.Token = accessToken(tok)
		if c.Token == "" {
			return errors.New("seed-http: login answered no access_token")
		}
		return nil
	}); err != nil {
		return err
	}

	// Their carts: GET /carts/me creates it; two items each.
	r, err = k.do("GET", "/api/v1/carts/me?currency="+url.QueryEscape(cat.Currency), nil, bearer(st.Customers[0].Token))
	if err != nil {
		return err
	}
	if routeMissing(r) {
		st.CartsMissing = "endpoint missing (GET /api/v1/carts/me)"
	} else {
		var mu sync.Mutex
		if err := inParallel(*concurrency, len(st.Customers), *server, func(k *conn, i int) error {
			c := &st.Customers[i]
			auth := bearer(c.Token)
			var cart struct {
				Data struct {
					ID string `json:"id"`
				} `json:"data"`
			}
			if _, err := k.doJSON("GET", "/api/v1/carts/me?currency="+url.QueryEscape(cat.Currency), nil, &cart, auth); err != nil {
				return err
			}
			for _, it := range c.Items[:2] {
				if _, err := k.doJSON("POST", "/api/v1/carts/"+cart.Data.ID+"/items", addItemBody(it), nil, auth); err != nil {
					return err
				}
			}
			mu.Lock()
			c.Cart = cart.Data.ID
			mu.Unlock()
			return nil
		}); err != nil {
			return err
		}
	}
	st.Seconds = time.Since(start).Seconds()
	fmt.Printf("seeded %d customers (carts: %s, coupon: %s) in %.1fs\n", len(st.Customers),
		orDefault(st.CartsMissing, "yes"), orDefault(st.CouponsMissing, st.Coupon), st.Seconds)
	return writeJSON(*out, st)
}

// accessToken finds access_token at the top level or under data.
func accessToken(m map[string]any) string {
	if s, ok := m["access_token"].(string); ok {
		return s
	}
	if d, ok := m["data"].(map[string]any); ok {
		if s, ok := d["access_token"].(string); ok {
			return s
		}
	}
	return ""
}

func addItemBody(it item) []byte {
	b := map[string]any{"product_id": it.ProductID, "quantity": 1}
	if it.VariantID != "" {
		b["variant_id"] = it.VariantID
	}
	return mustJSON(b)
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// inParallel runs fn for 0..n-1 on workers connections to server, each index once; a
// worker stops at its first error, which inParallel returns.
func inParallel(workers, n int, server string, fn func(k *conn, i int) error) error {
	var next atomic.Int64
	g := new(errgroup.Group)
	for range workers {
		g.Go(func() error {
			k := newConn(server)
			defer k.close()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return nil
				}
				if err := fn(k, i); err != nil {
					return err
				}
			}
		})
	}
	return g.Wait()
}
