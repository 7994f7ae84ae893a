// Command reference is the benchmark's physical limit (issue 8): a minimal net/http +
// pgx server over the same products table as the commerce server, run against the same
// database in the same benchmark run. It answers
//
//	GET /products/{id}              one indexed SELECT by primary key, JSON out
//	GET /products?page=N&per_page=M one page of active products, newest first
//	GET /health                     200
//
// with pgx's default statement cache (prepared statements) and its default pool.
// It does no authentication, no rate limiting, no logging: it is the floor under
// every figure in bench/results/latest.md.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// product is the row as JSON: the product's own columns, as a storefront shows them.
type product struct {
	ID                string          `json:"id"`
	Title             string          `json:"title"`
	Slug              string          `json:"slug"`
	Description       string          `json:"description"`
	ShortDescription  string          `json:"short_description"`
	ProductType       string          `json:"product_type"`
	Vendor            string          `json:"vendor"`
	Tags              json.RawMessage `json:"tags"`
	Status            string          `json:"status"`
	Price             string          `json:"price"`
	Currency          string          `json:"currency"`
	InventoryQuantity int             `json:"inventory_quantity"`
	CreatedAt         time.Time       `json:"created_at"`
	UpdatedAt         time.Time       `json:"updated_at"`
}

const columns = `id::text, title, slug, description, short_description, product_type, vendor, tags::text,
	status, price::text, currency, inventory_quantity, created_at, updated_at`

const (
	byID = `SELECT ` + columns + ` FROM products WHERE id = $1`
	// products.id, not id: the output column "id" is the text cast, and sorting by it
	// would bypass the indexes.
	listed = `SELECT ` + columns + ` FROM products WHERE products.status = $1
	ORDER BY products.created_at DESC, products.id DESC LIMIT $2 OFFSET $3`
)

func scan(row pgx.Row, p *product) error {
	var tags string
	err := row.Scan(&p.ID, &p.Title, &p.Slug, &p.Description, &p.ShortDescription, &p.ProductType, &p.Vendor, &tags,
		&p.Status, &p.Price, &p.Currency, &p.InventoryQuantity, &p.CreatedAt, &p.UpdatedAt)
	p.Tags = json.RawMessage(tags)
	p.CreatedAt, p.UpdatedAt = p.CreatedAt.UTC(), p.UpdatedAt.UTC()
	return err
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func intParam(r *http.Request, name string, def, lo, hi int) int {
	n, err := strconv.Atoi(r.URL.Query().Get(name))
	if err != nil {
		return def
	}
	return min(max(n, lo), hi)
}

func main() {
	addr := flag.String("addr", "127.0.0.1:8099", "listen address")
	flag.Parse()
	if err := run(*addr, os.Getenv("DATABASE_URL")); err != nil {
		log.Fatalf("reference: %v", err)
	}
}

func run(addr, dsn string) error {
	if dsn == "" {
		return errors.New("DATABASE_URL is required")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		return err
	}
	defer pool.Close()

	mux := http.NewServeMux()
	mux.HandleFunc("GET /health", func(w http.ResponseWriter, r *http.Request) {
		if err := pool.Ping(r.Context()); err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("GET /products/{id}", func(w http.ResponseWriter, r *http.Request) {
		var p product
		err := scan(pool.QueryRow(r.Context(), byID, r.PathValue("id")), &p)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			writeJSON(w, http.StatusNotFound, map[string]string{"error": "not found"})
		case err != nil:
			writeJSON(w, http.StatusInternalServerError, map[string]string{"error": err.Error()})
		default:
			writeJSON(w, http.StatusOK, map[string]any{"data": p})
		}
	})
	mux.HandleFunc("GET /products", func(w http.ResponseWriter, r *http.Request) {
		perPage := intParam(r, "per_page", 20, 1, 100)
		page := intParam(r, "page", 1, 1, 1<<20)
		rows, err := pool.Query(r.Context(), listed, "active", perPage, (page-1)*perPage)
		if err != nil {
			writeJSON(w, http.StatusInternalServerError, map[string]string{"error": err.Error()})
			return
		}
		defer rows.Close()
		out := make([]product, 0, perPage)
		for rows.Next() {
			var p product
			if err := scan(rows, &p); err != nil {
				writeJSON(w, http.StatusInternalServerError, map[string]string{"error": err.Error()})
				return
			}
			out = append(out, p)
		}
		if err := rows.Err(); err != nil {
			writeJSON(w, http.StatusInternalServerError, map[string]string{"error": err.Error()})
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"data": out})
	})

	srv := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	fmt.Fprintln(os.Stderr, "reference listening on", addr)
	if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
