package httpx_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/httpx"
)

func parsePage(t *testing.T, query string) (httpx.Page, error) {
	t.Helper()
	c, _ := gin.CreateTestContext(httptest.NewRecorder())
	c.Request = httptest.NewRequest(http.MethodGet, "/items"+query, nil)
	return httpx.ParsePage(c)
}

func TestParsePage(t *testing.T) {
	t.Parallel()
	ok := []struct {
		query               string
		page, perPage, skip int
	}{
		{"", 1, 20, 0},
		{"?page=&per_page=", 1, 20, 0},
		{"?page=3", 3, 20, 40},
		{"?per_page=5&page=2", 2, 5, 5},
		{"?per_page=1", 1, 1, 0},
		{"?per_page=100", 1, 100, 0},
		{"?per_page=101", 1, 100, 0},
		{"?per_page=500&page=4", 4, 100, 300},
	}
	for _, tc := range ok {
		p, err := parsePage(t, tc.query)
		if err != nil || p.Page != tc.page || p.PerPage != tc.perPage || p.Offset() != tc.skip || p.Limit() != tc.perPage {
			t.Fatalf("ParsePage(%q) = %+v (offset %d), %v; want page %d per_page %d offset %d", tc.query, p, p.Offset(), err, tc.page, tc.perPage, tc.skip)
		}
	}

	bad := []struct {
		query  string
		fields map[string]string
	}{
		{"?page=0", map[string]string{"page": "must be an integer of at least 1"}},
		{"?page=-1", map[string]string{"page": "must be an integer of at least 1"}},
		{"?page=abc", map[string]string{"page": "must be an integer of at least 1"}},
		{"?page=1.5", map[string]string{"page": "must be an integer of at least 1"}},
		{"?page=1000001", map[string]string{"page": "must be at most 1000000"}},
		{"?page=9223372036854775807", map[string]string{"page": "must be at most 1000000"}},
		{"?per_page=0", map[string]string{"per_page": "must be an integer from 1 to 100"}},
		{"?per_page=ten", map[string]string{"per_page": "must be an integer from 1 to 100"}},
		{"?page=0&per_page=x", map[string]string{"page": "must be an integer of at least 1", "per_page": "must be an integer from 1 to 100"}},
	}
	for _, tc := range bad {
		_, err := parsePage(t, tc.query)
		e, isApp := apperr.As(err)
		if !isApp || e.Kind != apperr.Invalid || e.Code != "" || !reflect.DeepEqual(e.Fields, tc.fields) {
			t.Fatalf("ParsePage(%q) err = %#v, want fields %v", tc.query, err, tc.fields)
		}
	}

	// Through the server: a 400 envelope naming the parameter; the cap shows in meta.
	s, _ := newServer(t, serverOpts{})
	expectError(t, get(t, s, "/api/v1/products?page=abc", nil), http.StatusBadRequest, validation("page", "must be an integer of at least 1"))
	w := get(t, s, "/api/v1/products?per_page=1000", nil)
	want := `{"data":["a"],"meta":{"pagination":{"total":1,"per_page":100,"current_page":1,"total_pages":1,"has_next":false,"has_prev":false}}}`
	if w.Code != http.StatusOK || w.Body.String() != want {
		t.Fatalf("list = %d %s\n want %s", w.Code, w.Body, want)
	}
}

func TestListShapes(t *testing.T) {
	t.Parallel()
	p1 := httpx.Page{Page: 1, PerPage: 20}
	p2 := httpx.Page{Page: 2, PerPage: 20}
	p3 := httpx.Page{Page: 3, PerPage: 20}
	cases := []struct {
		name string
		v    any
		want string
	}{
		{"list total 0", httpx.NewList[int](nil, p1, 0),
			`{"data":[],"meta":{"pagination":{"total":0,"per_page":20,"current_page":1,"total_pages":0,"has_next":false,"has_prev":false}}}`},
		{"list total 1", httpx.NewList([]int{7}, p1, 1),
			`{"data":[7],"meta":{"pagination":{"total":1,"per_page":20,"current_page":1,"total_pages":1,"has_next":false,"has_prev":false}}}`},
		{"list total 21 page 1", httpx.NewList([]int{1, 2}, p1, 21),
			`{"data":[1,2],"meta":{"pagination":{"total":21,"per_page":20,"current_page":1,"total_pages":2,"has_next":true,"has_prev":false}}}`},
		{"list total 21 page 2", httpx.NewList([]int{21}, p2, 21),
			`{"data":[21],"meta":{"pagination":{"total":21,"per_page":20,"current_page":2,"total_pages":2,"has_next":false,"has_prev":true}}}`},
		{"list total 21 past the end", httpx.NewList([]int{}, p3, 21),
			`{"data":[],"meta":{"pagination":{"total":21,"per_page":20,"current_page":3,"total_pages":2,"has_next":false,"has_prev":true}}}`},
		{"list total 40 exact pages", httpx.NewList[int](nil, p2, 40),
			`{"data":[],"meta":{"pagination":{"total":40,"per_page":20,"current_page":2,"total_pages":2,"has_next":false,"has_prev":true}}}`},
		{"flat total 0", httpx.NewFlatList[string](nil, p1, 0),
			`{"data":[],"meta":{"total":0,"page":1,"per_page":20,"total_pages":0}}`},
		{"flat total 1", httpx.NewFlatList([]string{"c"}, p1, 1),
			`{"data":["c"],"meta":{"total":1,"page":1,"per_page":20,"total_pages":1}}`},
		{"flat total 21 page 2", httpx.NewFlatList([]string{"u"}, p2, 21),
			`{"data":["u"],"meta":{"total":21,"page":2,"per_page":20,"total_pages":2}}`},
		{"data", httpx.Data(map[string]int{"id": 1}), `{"data":{"id":1}}`},
	}
	for _, tc := range cases {
		b, err := json.Marshal(tc.v)
		if err != nil || string(b) != tc.want {
			t.Fatalf("%s = %s (%v)\n want %s", tc.name, b, err, tc.want)
		}
	}
}
