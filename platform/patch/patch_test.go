package patch_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/patch"
)

func parse(t *testing.T, body string, opts ...patch.Option) *patch.Body {
	t.Helper()
	b, err := patch.Parse([]byte(body), opts...)
	if err != nil {
		t.Fatalf("Parse(%s): %v", body, err)
	}
	return b
}

// fieldsOf returns the fields of a validation error (nil for any other error).
func fieldsOf(err error) map[string]string {
	if e, ok := apperr.As(err); ok && e.Kind == apperr.Invalid && e.Code == "" {
		return e.Fields
	}
	return nil
}

// TestAbsentNullValue checks the three states of a member, for every reader.
func TestAbsentNullValue(t *testing.T) {
	t.Parallel()
	b := parse(t, `{"title": "Mug", "vendor": null, "n": 3, "ok": false, "tags": ["a"], "price": "9.50",
		"weight": 1.250, "meta": {"k": 1.5}, "opts": {"size": "L"}, "at": "2026-03-01T10:00:00+02:00"}`)
	if f := b.String("title"); f != patch.Val("Mug") || !f.HasValue() {
		t.Errorf("title %+v", f)
	}
	if f := b.String("vendor"); f != patch.Null[string]() || f.HasValue() {
		t.Errorf("vendor %+v", f)
	}
	if f := b.String("missing"); f.Set || f.Null || f.HasValue() {
		t.Errorf("missing %+v", f)
	}
	if f := b.Int("n"); f != patch.Val(3) {
		t.Errorf("n %+v", f)
	}
	if f := b.Bool("ok"); f != patch.Val(false) {
		t.Errorf("ok %+v", f)
	}
	if f := b.Strings("tags"); !f.HasValue() || !reflect.DeepEqual(f.Value, []string{"a"}) {
		t.Errorf("tags %+v", f)
	}
	if f := b.Amount("price"); f != patch.Val("9.50") {
		t.Errorf("price %+v", f)
	}
	if f := b.Decimal("weight"); f != patch.Val("1.250") { // a number kept as written
		t.Errorf("weight %+v", f)
	}
	if f := b.Object("meta"); !f.HasValue() || f.Value["k"] != json.Number("1.5") {
		t.Errorf("meta %+v", f)
	}
	if f := b.StringMap("opts"); !f.HasValue() || f.Value["size"] != "L" {
		t.Errorf("opts %+v", f)
	}
	if f := b.Time("at"); !f.HasValue() || !f.Value.Equal(time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)) || f.Value.Location() != time.UTC {
		t.Errorf("at %+v", f)
	}
	if !b.Has("vendor") || b.Has("missing") {
		t.Error("Has")
	}
	if err := b.Err(); err != nil {
		t.Errorf("Err: %v", err)
	}
}

// TestTypeErrorsNameEveryField checks that every member of the wrong type is named,
// with the type it must have, and that the field is then absent.
func TestTypeErrorsNameEveryField(t *testing.T) {
	t.Parallel()
	b := parse(t, `{"title": 5, "ok": "yes", "n": 1.5, "big": 1e3, "tags": "a", "price": true, "meta": [],
		"opts": {"a": 1}, "at": "yesterday", "weight": false}`)
	fields := []patch.Field[string]{b.String("title"), b.Amount("price"), b.Decimal("weight")}
	for _, f := range fields {
		if f.Set {
			t.Errorf("a bad member is present: %+v", f)
		}
	}
	b.Bool("ok")
	b.Int("n")
	b.Int("big")
	b.Strings("tags")
	b.Object("meta")
	b.StringMap("opts")
	b.Time("at")
	want := map[string]string{
		"title": "must be a string", "ok": "must be a boolean", "n": "must be an integer", "big": "must be an integer",
		"tags": "must be an array of strings", "price": `must be a decimal string such as "19.99"`, "meta": "must be an object",
		"opts": "must be an object of strings", "at": "must be an ISO 8601 timestamp", "weight": `must be a decimal string such as "1.25"`,
	}
	if got := fieldsOf(b.Err()); !reflect.DeepEqual(got, want) {
		t.Errorf("fields\n got %v\nwant %v", got, want)
	}
}

// TestUnknownMembersIgnored: members nobody reads are not an error (decision 0007).
func TestUnknownMembersIgnored(t *testing.T) {
	t.Parallel()
	b := parse(t, `{"title": "x", "surprise": {"deep": [1, 2]}, "TITLE": 5}`)
	if f := b.String("title"); f != patch.Val("x") {
		t.Errorf("title %+v", f)
	}
	if err := b.Err(); err != nil {
		t.Errorf("Err: %v", err)
	}
}

// TestBodies checks what is one JSON object and what is not.
func TestBodies(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"", "  \n", "{}", ` {"a": 1} `} {
		if _, err := patch.Parse([]byte(ok)); err != nil {
			t.Errorf("Parse(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"null", "[1]", `"x"`, "3", "{nope", `{"a": 1} {}`, `{"a": 1} x`, "{"} {
		_, err := patch.Parse([]byte(bad))
		if got := fieldsOf(err); got["body"] != "must be a valid JSON object" {
			t.Errorf("Parse(%q) = %v", bad, err)
		}
	}
}

// TestReadLimit: a body cut by http.MaxBytesReader is 413, and a nil body is {}.
func TestReadLimit(t *testing.T) {
	t.Parallel()
	r := httptest.NewRequest(http.MethodPatch, "/", strings.NewReader(`{"title": "`+strings.Repeat("x", 100)+`"}`))
	r.Body = http.MaxBytesReader(httptest.NewRecorder(), r.Body, 10)
	_, err := patch.Read(r)
	if e, ok := apperr.As(err); !ok || e.Kind != apperr.TooLarge {
		t.Errorf("over the limit: %v", err)
	}
	r = httptest.NewRequest(http.MethodPatch, "/", nil)
	r.Body = nil
	if b, err := patch.Read(r); err != nil || b.String("x").Set {
		t.Errorf("nil body: %v", err)
	}
	r = httptest.NewRequest(http.MethodPatch, "/", strings.NewReader(`{"x": "y"}`))
	if b, err := patch.Read(r); err != nil || b.String("x") != patch.Val("y") {
		t.Errorf("Read: %v", err)
	}
}

var errPrice = apperr.New(apperr.Invalid, "INVALID_PRICE", "bad price")

// TestAmountNumbers: a JSON number amount is a problem of the field, or the module's
// coded error with AmountCode, which type errors come before.
func TestAmountNumbers(t *testing.T) {
	t.Parallel()
	b := parse(t, `{"price": 19.99}`)
	b.Amount("price")
	if got := fieldsOf(b.Err()); got["price"] != `must be a decimal string such as "19.99", not a JSON number` {
		t.Errorf("without a code: %v", b.Err())
	}

	b = parse(t, `{"price": 19.99, "cost": 1}`, patch.AmountCode(errPrice))
	if f := b.Amount("price"); f.Set {
		t.Errorf("price %+v", f)
	}
	b.Amount("cost")
	e, ok := apperr.As(b.Err())
	if !ok || !errors.Is(e, errPrice) || e.Fields["price"] == "" || e.Fields["cost"] != "" ||
		e.Message != `price must be a decimal string such as "19.99", not a JSON number` {
		t.Errorf("coded: %v %+v", b.Err(), e)
	}

	b = parse(t, `{"price": 19.99, "title": 5}`, patch.AmountCode(errPrice))
	b.Amount("price")
	b.String("title")
	if got := fieldsOf(b.Err()); len(got) != 1 || got["title"] == "" {
		t.Errorf("type errors first: %v", b.Err())
	}
}

// TestIgnoreNulls: null reads as absent.
func TestIgnoreNulls(t *testing.T) {
	t.Parallel()
	b := parse(t, `{"note": null, "tags": null, "name": "x"}`, patch.IgnoreNulls())
	if f := b.String("note"); f.Set {
		t.Errorf("note %+v", f)
	}
	if f := b.Strings("tags"); f.Set {
		t.Errorf("tags %+v", f)
	}
	if f := b.String("name"); f != patch.Val("x") {
		t.Errorf("name %+v", f)
	}
}

// TestSub: a nested object's problems are named with its path.
func TestSub(t *testing.T) {
	t.Parallel()
	b := parse(t, `{"rule": {"qty": "two", "price": 5, "ids": ["a"]}, "gone": null, "flat": 3}`)
	sub, f := b.Sub("rule")
	if sub == nil || f != patch.Val(struct{}{}) {
		t.Fatalf("rule %+v", f)
	}
	sub.Int("qty")
	sub.Amount("price")
	if ids := sub.Strings("ids"); !ids.HasValue() || ids.Value[0] != "a" {
		t.Errorf("ids %+v", ids)
	}
	sub.Fail("ids", "not these")
	if !sub.Failed("ids") || !b.Failed("rule.ids") {
		t.Error("Failed")
	}
	if s, f := b.Sub("gone"); s != nil || f != patch.Null[struct{}]() {
		t.Errorf("gone %+v", f)
	}
	if s, f := b.Sub("flat"); s != nil || f.Set {
		t.Errorf("flat %+v", f)
	}
	if s, f := b.Sub("missing"); s != nil || f.Set {
		t.Errorf("missing %+v", f)
	}
	want := map[string]string{
		"rule.qty": "must be an integer", "rule.price": `must be a decimal string such as "19.99", not a JSON number`,
		"rule.ids": "not these", "flat": "must be an object",
	}
	if got := fieldsOf(b.Err()); !reflect.DeepEqual(got, want) {
		t.Errorf("fields\n got %v\nwant %v", got, want)
	}
}

// TestGet: a custom reader.
func TestGet(t *testing.T) {
	t.Parallel()
	b := parse(t, `{"level": "high", "other": "x"}`)
	level := func(raw json.RawMessage) (int, bool) {
		return map[string]int{`"low"`: 1, `"high"`: 2}[string(raw)], patch.Kind(raw) == patch.KindString && (string(raw) == `"low"` || string(raw) == `"high"`)
	}
	if f := patch.Get(b, "level", "low or high", level); f != patch.Val(2) {
		t.Errorf("level %+v", f)
	}
	patch.Get(b, "other", "low or high", level)
	if got := fieldsOf(b.Err()); got["other"] != "must be low or high" {
		t.Errorf("other: %v", b.Err())
	}
}

// TestAppliers checks Apply, Copy, OneOf and Text: absent leaves the target, null and
// bad values are problems and store nothing.
func TestAppliers(t *testing.T) {
	t.Parallel()
	bad := patch.Problems{}
	title, desc, status, n, flag := "old", "old", "draft", 1, true

	patch.Text{Max: 5, Required: true}.Apply(bad, "title", patch.Val("  new "), &title)
	patch.Text{}.Apply(bad, "desc", patch.Field[string]{}, &desc)
	patch.OneOf(bad, "status", patch.Val("active"), &status, "active", "draft")
	patch.Copy(bad, "flag", patch.Val(false), &flag)
	patch.Apply(bad, "n", patch.Val(7), &n, func(v int) (int, string) { return v * 2, "" })
	if len(bad) != 0 || title != "new" || desc != "old" || status != "active" || n != 14 || flag {
		t.Fatalf("good values: %v %q %q %q %d %v", bad, title, desc, status, n, flag)
	}

	patch.Text{Max: 5, Required: true}.Apply(bad, "title", patch.Val("   "), &title)
	patch.Text{Max: 3}.Apply(bad, "desc", patch.Val("éééé"), &desc)
	patch.OneOf(bad, "status", patch.Null[string](), &status, "active", "draft")
	patch.Copy(bad, "flag", patch.Null[bool](), &flag)
	patch.Apply(bad, "n", patch.Val(-1), &n, func(v int) (int, string) { return v, "must be positive" })
	patch.Apply(bad, "n", patch.Val(-2), &n, func(v int) (int, string) { return v, "second problem" })
	want := patch.Problems{
		"title": "must not be empty", "desc": "must be at most 3 characters", "status": "must be one of: active, draft",
		"flag": patch.MsgNotNull, "n": "must be positive",
	}
	if !reflect.DeepEqual(bad, want) || title != "new" || desc != "old" || status != "active" || n != 14 || flag {
		t.Errorf("bad values: %v %q %q %q %d %v", bad, title, desc, status, n, flag)
	}
	if got := fieldsOf(bad.Err()); !reflect.DeepEqual(got, map[string]string(want)) {
		t.Errorf("Err: %v", bad.Err())
	}
	if (patch.Problems{}).Err() != nil {
		t.Error("no problems is no error")
	}
	if s, msg := (patch.Text{}).Check("  kept  "); s != "  kept  " || msg != "" {
		t.Errorf("untrimmed text: %q %q", s, msg)
	}
}
