package catalog_test

import (
	"bytes"
	"context"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"sort"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/catalog"
	cataloghttp "github.com/gocommerce/commerce/modules/catalog/adapters/http"
	"github.com/gocommerce/commerce/modules/catalog/adapters/localdisk"
	catalogpg "github.com/gocommerce/commerce/modules/catalog/adapters/postgres"
	"github.com/gocommerce/commerce/modules/catalog/app"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/testdb"
)

func init() { httpxtest.ReadAsText("image/png", "image/jpeg", "image/webp") }

var principals = httpxtest.Preset().With(httpxtest.Principals{
	"writer":   httpxtest.APIKey("k2", "products:write", "collections:write"),
	"reader":   httpxtest.APIKey("k3", "products:read", "collections:read"),
	"customer": httpxtest.Customer("c1", ""),
	"orders":   httpxtest.APIKey("k4", "orders:read"),
})

// docs checks every response against the module's OpenAPI fragment; unknown routes
// may answer 404 or 405 undocumented.
var docs = httpxtest.Docs(func() *catalog.Module { return catalog.NewModule(nil) },
	http.StatusNotFound, http.StatusMethodNotAllowed)

// fakeOrders is ports.Orders with a settable answer.
type fakeOrders struct {
	mu   sync.Mutex
	with map[string]bool
}

func (f *fakeOrders) ProductHasOrders(_ context.Context, id string) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.with[id], nil
}

func (f *fakeOrders) set(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.with[id] = true
}

// stack is the catalog module wired by hand as catalog.ProviderSet wires it (with a
// fake orders port), behind the real router, with responses checked against the
// module's OpenAPI fragment.
type stack struct {
	*httpxtest.Harness
	t       *testing.T
	engine  string
	db      *db.DB
	svc     *app.Service
	orders  *fakeOrders
	uploads string
}

type stackOptions struct {
	maxImageBytes int64
}

func newStack(t *testing.T, engine string, opts ...stackOptions) *stack {
	t.Helper()
	var o stackOptions
	if len(opts) > 0 {
		o = opts[0]
	}
	env := httpxtest.NewEnv(t, engine, time.Now(), catalog.Migrations())
	env.Config.DataDir = t.TempDir()
	if o.maxImageBytes > 0 {
		env.Config.Uploads.MaxSizeBytes = o.maxImageBytes
	}
	storage, err := localdisk.New(catalog.UploadsDir(&env.Config), env.Config.Uploads.PublicURL)
	if err != nil {
		t.Fatal(err)
	}
	orders := &fakeOrders{with: map[string]bool{}}
	svc := app.NewService(catalog.NewSettings(&env.Config), env.DB, app.Stores{
		Products:    catalogpg.NewProductRepository(env.DB),
		Variants:    catalogpg.NewVariantRepository(env.DB),
		Images:      catalogpg.NewImageRepository(env.DB),
		Collections: catalogpg.NewCollectionRepository(env.DB),
	}, storage, orders, env.Outbox(), clock.New(), zap.NewNop())
	mod := catalog.NewModule(cataloghttp.NewHandler(svc, catalog.NewHTTPSettings(&env.Config)))
	return &stack{Harness: env.Serve(principals, docs, mod), t: t, engine: engine, db: env.DB, svc: svc, orders: orders, uploads: catalog.UploadsDir(&env.Config)}
}

// upload posts a multipart image form.
func (s *stack) upload(cred, productID, filename string, data []byte, fields map[string]string) httpxtest.Response {
	s.t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := w.WriteField(k, fields[k]); err != nil {
			s.t.Fatal(err)
		}
	}
	if data != nil {
		fw, err := w.CreateFormFile("file", filename)
		if err != nil {
			s.t.Fatal(err)
		}
		if _, err := fw.Write(data); err != nil {
			s.t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		s.t.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodPost, "/api/v1/products/"+productID+"/images", &buf)
	req.Header.Set("Content-Type", w.FormDataContentType())
	return s.Send(req, cred)
}

// mustCreate creates a product and returns its data.
func (s *stack) mustCreate(body map[string]any) map[string]any {
	s.t.Helper()
	r := s.Do(http.MethodPost, "/api/v1/products", body, "admin")
	if r.Code != http.StatusCreated {
		s.t.Fatalf("create product: %d %s", r.Code, r.Raw)
	}
	return r.Data()
}

// forEngine runs f on every engine in parallel with a fresh stack.
func forEngine(t *testing.T, f func(t *testing.T, s *stack), opts ...stackOptions) {
	testdb.EachEngine(t, func(t *testing.T, engine string) { f(t, newStack(t, engine, opts...)) })
}
