package carts_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/carts"
	cartshttp "github.com/gocommerce/commerce/modules/carts/adapters/http"
	cartsjobs "github.com/gocommerce/commerce/modules/carts/adapters/jobs"
	cartspg "github.com/gocommerce/commerce/modules/carts/adapters/postgres"
	"github.com/gocommerce/commerce/modules/carts/api"
	"github.com/gocommerce/commerce/modules/carts/app"
	"github.com/gocommerce/commerce/modules/carts/domain"
	"github.com/gocommerce/commerce/modules/carts/ports"
	"github.com/gocommerce/commerce/platform/auth"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/httpxtest"
)

const (
	customer1 = "0190a000-0000-7000-8000-0000000000c1"
	customer2 = "0190a000-0000-7000-8000-0000000000c2"
	// Products of the fake catalog.
	shirt       = "0190a000-0000-7000-8000-0000000000a1" // default variant only, 19.99, stock 100
	shirtV      = "0190a000-0000-7000-8000-0000000000a2"
	mug         = "0190a000-0000-7000-8000-0000000000b1" // two variants: red (5 in stock), blue (continue)
	mugRed      = "0190a000-0000-7000-8000-0000000000b2"
	mugBlue     = "0190a000-0000-7000-8000-0000000000b3"
	draft       = "0190a000-0000-7000-8000-0000000000d1"
	draftV      = "0190a000-0000-7000-8000-0000000000d2"
	soldOut     = "0190a000-0000-7000-8000-0000000000e1"
	soldOutV    = "0190a000-0000-7000-8000-0000000000e2"
	untracked   = "0190a000-0000-7000-8000-0000000000f1"
	untrackedV  = "0190a000-0000-7000-8000-0000000000f2"
	euro        = "0190a000-0000-7000-8000-0000000000f3"
	euroV       = "0190a000-0000-7000-8000-0000000000f4"
	giftCard    = "0190a000-0000-7000-8000-0000000000f5"
	giftCardV   = "0190a000-0000-7000-8000-0000000000f6"
	missing     = "0190a000-0000-7000-8000-000000000000"
	collection1 = "0190a000-0000-7000-8000-0000000000c0"
)

var principals = httpxtest.Preset().With(httpxtest.ReadWrite("carts")).With(httpxtest.Principals{
	"products": httpxtest.APIKey("k4", "products:read"),
	"cust1":    httpxtest.Customer(customer1, ""),
	"cust2":    httpxtest.Customer(customer2, ""),
	"nocarts":  {Kind: auth.Customer, ID: customer2, Scopes: []string{"products:read"}},
})

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// fakeCatalog is ports.Catalog over a fixed set of products.
type fakeCatalog struct {
	mu       sync.Mutex
	variants map[string][]domain.Product // product id -> variants (a single default one when its VariantTitle is "")
	cols     map[string][]string
}

func newCatalog() *fakeCatalog {
	p := func(pid, vid, title, vtitle, sku, status, cur, price string, tracked bool, policy string, stock int) domain.Product {
		return domain.Product{ProductID: pid, VariantID: vid, Title: title, VariantTitle: vtitle, SKU: sku, Status: status, Currency: cur,
			Price: dec(price), ImageURL: "https://cdn.example.com/" + sku + ".jpg", RequiresShipping: true,
			InventoryTracked: tracked, InventoryPolicy: policy, InventoryQuantity: stock}
	}
	gc := p(giftCard, giftCardV, "Gift card", "", "GIFT", "active", "USD", "25.00", false, "deny", 0)
	gc.IsGiftCard, gc.RequiresShipping = true, false
	return &fakeCatalog{
		variants: map[string][]domain.Product{
			shirt:     {p(shirt, shirtV, "T-shirt", "", "TS-1", "active", "USD", "19.99", true, "deny", 100)},
			mug:       {p(mug, mugRed, "Mug", "Red", "MUG-R", "active", "USD", "8.50", true, "deny", 5), p(mug, mugBlue, "Mug", "Blue", "MUG-B", "active", "USD", "9.00", true, "continue", 0)},
			draft:     {p(draft, draftV, "Draft", "", "DR", "draft", "USD", "1.00", false, "deny", 0)},
			soldOut:   {p(soldOut, soldOutV, "Sold out", "", "SO", "active", "USD", "3.00", true, "deny", 0)},
			untracked: {p(untracked, untrackedV, "Poster", "", "PO", "active", "USD", "0.10", false, "deny", 0)},
			euro:      {p(euro, euroV, "Euro thing", "", "EU", "active", "EUR", "5.00", false, "deny", 0)},
			giftCard:  {gc},
		},
		cols: map[string][]string{shirt: {collection1}},
	}
}

func (f *fakeCatalog) Product(_ context.Context, pid, vid string) (domain.Product, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	vs, ok := f.variants[pid]
	if !ok {
		return domain.Product{}, domain.ErrProductNotFound
	}
	if vid == "" {
		if len(vs) == 1 && vs[0].VariantTitle == "" {
			return vs[0], nil
		}
		return domain.Product{}, domain.ErrVariantNotFound.WithMessage("variant_id is required: the product has variants")
	}
	for _, v := range vs {
		if v.VariantID == vid {
			return v, nil
		}
	}
	return domain.Product{}, domain.ErrVariantNotFound
}

func (f *fakeCatalog) Collections(_ context.Context, ids []string) (map[string][]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string][]string{}
	for _, id := range ids {
		if c, ok := f.cols[id]; ok {
			out[id] = c
		}
	}
	return out, nil
}

func (f *fakeCatalog) set(pid string, fn func(p *domain.Product)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := range f.variants[pid] {
		fn(&f.variants[pid][i])
	}
}

// fakeCoupon is one coupon of the fake coupons module.
type fakeCoupon struct {
	Type    string // percentage, fixed_amount, free_shipping
	Value   string
	Minimum string
	Error   string // forced error code (COUPON_EXPIRED, ...)
}

// fakeCoupons is ports.Coupons with a few coupons: percentage per line (rounded
// half-up), fixed amount on the first line, free shipping; one coupon per cart unless
// stacking free shipping with one percentage/fixed coupon.
type fakeCoupons struct {
	mu       sync.Mutex
	coupons  map[string]fakeCoupon
	stacking bool
	queries  []ports.CouponQuery
	applied  []ports.CouponNotice
	removed  []ports.CouponNotice
}

func (f *fakeCoupons) Evaluate(ctx context.Context, q ports.CouponQuery) (ports.CouponResult, error) {
	if q.Collections != nil { // record the lines as the coupons module sees them
		cols, err := q.Collections(ctx)
		if err != nil {
			return ports.CouponResult{}, err
		}
		lines := make([]ports.CouponLine, len(q.Lines))
		for i, l := range q.Lines {
			l.CollectionIDs = cols[l.ProductID]
			lines[i] = l
		}
		q.Lines = lines
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.queries = append(f.queries, q)
	code := strings.ToUpper(q.Code)
	c, ok := f.coupons[code]
	if !ok {
		return ports.CouponResult{ErrorCode: "COUPON_NOT_FOUND", ErrorMessage: "Coupon not found"}, nil
	}
	res := ports.CouponResult{CouponID: "id-" + code, Code: code, Type: c.Type, Items: map[domain.ItemID]decimal.Decimal{}, Shipping: decimal.Zero, Amount: decimal.Zero}
	for _, a := range q.Applied {
		if strings.EqualFold(a, code) {
			res.ErrorCode = "COUPON_ALREADY_APPLIED"
			return res, nil
		}
	}
	switch {
	case c.Error != "":
		res.ErrorCode, res.ErrorMessage = c.Error, "coupon says "+c.Error
		return res, nil
	case q.HasAutomaticDiscounts || len(q.Applied) > 1:
		res.ErrorCode = "COUPON_CANNOT_COMBINE"
		return res, nil
	case len(q.Applied) == 1:
		other := f.coupons[strings.ToUpper(q.Applied[0])]
		if !f.stacking || (c.Type == "free_shipping") == (other.Type == "free_shipping") {
			res.ErrorCode = "COUPON_CANNOT_COMBINE"
			return res, nil
		}
	}
	if c.Minimum != "" && q.Subtotal.LessThan(dec(c.Minimum)) {
		res.ErrorCode, res.ErrorMessage = "COUPON_MINIMUM_NOT_MET", "Cart subtotal is below the minimum"
		return res, nil
	}
	switch c.Type {
	case "percentage":
		for _, l := range q.Lines {
			d := l.UnitPrice.Mul(decimal.NewFromInt(int64(l.Quantity))).Mul(dec(c.Value)).Div(decimal.NewFromInt(100)).Round(2)
			res.Items[l.ItemID] = d
			res.Amount = res.Amount.Add(d)
		}
	case "fixed_amount":
		if len(q.Lines) > 0 {
			res.Items[q.Lines[0].ItemID] = dec(c.Value)
			res.Amount = dec(c.Value)
		}
	case "free_shipping":
		res.Shipping, res.Amount = q.ShippingTotal, q.ShippingTotal
	}
	res.Valid = true
	return res, nil
}

func (f *fakeCoupons) Applied(_ context.Context, n ports.CouponNotice) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.applied = append(f.applied, n)
	return nil
}

func (f *fakeCoupons) Removed(_ context.Context, n ports.CouponNotice) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.removed = append(f.removed, n)
	return nil
}

func (f *fakeCoupons) lastQuery() ports.CouponQuery {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.queries[len(f.queries)-1]
}

// fakeTax answers a fixed result per address.
type fakeTax struct {
	mu      sync.Mutex
	results map[string]ports.TaxResult
	last    ports.TaxQuery
}

func (f *fakeTax) Calculate(_ context.Context, q ports.TaxQuery) (ports.TaxResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.last = q
	if r, ok := f.results[q.ShippingAddressID]; ok {
		return r, nil
	}
	return ports.TaxResult{Total: decimal.Zero, Breakdown: []ports.TaxJurisdiction{}}, nil
}

// fakeAddresses knows which saved address belongs to which customer.
type fakeAddresses struct {
	mu    sync.Mutex
	owner map[string]string // address id → customer id
	asked int
}

func (f *fakeAddresses) CustomerAddress(_ context.Context, customerID, addressID string) (*ports.Address, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked++
	if f.owner[addressID] != customerID {
		return nil, nil
	}
	return &ports.Address{Country: "US", Region: "NY", PostalCode: "10001", City: "New York"}, nil
}

// fakeAuto reports automatic discounts when on.
type fakeAuto struct{ on bool }

func (f *fakeAuto) Has(context.Context, *domain.Cart) (bool, error) { return f.on, nil }

// harness is the carts module on a fresh database with fake collaborators.
type harness struct {
	*httpxtest.Harness
	t       *testing.T
	engine  string
	db      *db.DB
	svc     *app.Service
	queries *app.QueryService
	clock   *clock.Fake
	catalog *fakeCatalog
	coupons *fakeCoupons
	tax     *fakeTax
	addrs   *fakeAddresses
	auto    *fakeAuto
	jobs    *cartsjobs.Jobs
}

var t0 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

func newHarness(t *testing.T, engine string) *harness {
	t.Helper()
	env := httpxtest.NewEnv(t, engine, t0, carts.Migrations())
	clk := env.Clock
	h := &harness{
		t: t, engine: engine, db: env.DB, clock: clk, catalog: newCatalog(),
		coupons: &fakeCoupons{stacking: true, coupons: map[string]fakeCoupon{
			"TEN": {Type: "percentage", Value: "10"}, "FIVE": {Type: "fixed_amount", Value: "5.00"},
			"SHIP": {Type: "free_shipping"}, "SHIP2": {Type: "free_shipping"}, "BIG": {Type: "percentage", Value: "50", Minimum: "100.00"},
			"OLD": {Error: "COUPON_EXPIRED"}, "OFF": {Error: "COUPON_INACTIVE"}, "LATER": {Error: "COUPON_NOT_STARTED"},
			"USED": {Error: "COUPON_USAGE_LIMIT"}, "ONCE": {Error: "COUPON_CUSTOMER_LIMIT"}, "NOTYOU": {Error: "COUPON_CUSTOMER_NOT_ELIGIBLE"},
			"WELCOME": {Error: "COUPON_NEW_CUSTOMERS_ONLY"}, "SHOES": {Error: "COUPON_PRODUCT_NOT_ELIGIBLE"},
		}},
		tax:   &fakeTax{results: map[string]ports.TaxResult{}},
		addrs: &fakeAddresses{owner: map[string]string{}},
		auto:  &fakeAuto{},
	}
	outbox := env.Outbox()
	repo := cartspg.NewCartRepository(env.DB, outbox)
	h.queries = app.NewQueryService(repo, clk)
	h.svc = app.NewService(carts.NewSettings(&env.Config), env.DB, repo, app.Collaborators{
		Catalog: h.catalog, Coupons: h.coupons, Tax: h.tax, AutomaticDiscounts: h.auto,
		Addresses: h.addrs,
	}, outbox, clk)
	h.jobs = cartsjobs.NewJobs(h.svc, zap.NewNop())
	h.Harness = env.Serve(principals, docs, carts.NewModule(cartshttp.NewHandler(h.svc), h.jobs))
	return h
}

// eachEngine runs fn on a fresh harness per engine, in parallel.
func eachEngine(t *testing.T, fn func(t *testing.T, h *harness)) {
	httpxtest.EachEngine(t, newHarness, fn)
}

// docs checks every response against the module's OpenAPI document; unknown routes
// may answer 404 or 405 undocumented.
var docs = httpxtest.Docs(func() *carts.Module { return carts.NewModule(nil, nil) }, http.StatusNotFound, http.StatusMethodNotAllowed)

var assertError = httpxtest.AssertError

// guest creates a guest cart and returns its id and the X-Session-Token header.
func (h *harness) guest(currency string) (string, string) {
	h.t.Helper()
	var body any
	if currency != "" {
		body = map[string]any{"currency": currency}
	}
	d := h.Must(http.StatusCreated, http.MethodPost, "/api/v1/carts/guest", body).Data()
	return d["id"].(string), "X-Session-Token: " + d["session_token"].(string)
}

// ship sets the cart's shipping to a rate the way checkout does
// (api.Carts.ChooseShipping), as the caller who (a principal or a session header).
func (h *harness) ship(cart, who, method, price string) api.Cart {
	h.t.Helper()
	a := api.Access{CartID: cart}
	if tok, ok := strings.CutPrefix(who, "X-Session-Token: "); ok {
		a.SessionToken = tok
	} else {
		a.Principal = principals[who]
	}
	c, err := h.svc.ChooseShipping(context.Background(), a, method, dec(price))
	if err != nil {
		h.t.Fatalf("choose shipping: %v", err)
	}
	return c
}

// add adds an item and returns it.
func (h *harness) add(cart, session string, body map[string]any) map[string]any {
	h.t.Helper()
	return h.Must(http.StatusCreated, http.MethodPost, "/api/v1/carts/"+cart+"/items", body, session).Data()
}

func items(cart map[string]any) []map[string]any { return httpxtest.Objects(cart["items"]) }
