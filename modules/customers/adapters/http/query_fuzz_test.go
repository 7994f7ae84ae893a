package http

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/money"
)

// The customer list's and the orders tab's queries: any query string is parsed or
// refused with a 400.
func FuzzParseListQuery(f *testing.F) {
	httpxtest.FuzzQuery(f, []string{"", "email=a@b.co&state=enabled&accepts_marketing=true&sort=total_spent&order=desc",
		"min_orders=-1&min_total_spent=1e3&tags=a,,b", "created_after=2026-01-02&updated_after=yesterday", "q=%ff&sort=bogus",
		"status=open&financial_status=nope", "min_orders=99999999999999999999", "min_total_spent=12345678901234567.1", "min_total_spent=1e30"},
		func(c *gin.Context) error {
			q, err := parseListQuery(c)
			if d := q.Filter.MinTotalSpent; err == nil && d != nil && !money.Bounded(*d) { // 1e30 wrapped around the int64 units
				return apperr.New(apperr.Internal, "", "accepted amount "+d.String()+", beyond its integer units")
			}
			if _, ferr := parseOrderFilter(c); err == nil {
				err = ferr
			}
			return err
		})
}

// The customer resource is api.Customer with its optional members: the members keep
// Part 2's order (timestamps last) and the timestamps are in UTC.
func TestCustomerResponseMembers(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("CET", 3600))
	b, err := json.Marshal(toCustomerResponse(api.Customer{ID: "c1", CreatedAt: at, UpdatedAt: at}, include{addresses: true, orders: true, metafields: true}, nil))
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	var keys []string
	for depth := 0; ; {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		default:
			if s, ok := tok.(string); ok && depth == 1 && dec.More() {
				keys = append(keys, s)
				var skip json.RawMessage
				_ = dec.Decode(&skip)
			}
		}
	}
	want := "id email phone first_name last_name accepts_marketing marketing_opt_in_at tax_exempt tax_exemptions currency " +
		"language note tags verified_email state last_order_id last_order_name orders_count total_spent average_order_value " +
		"default_address addresses orders metafields created_at updated_at"
	if got := strings.Join(keys, " "); got != want {
		t.Fatalf("members %s\nwant    %s", got, want)
	}
	if !bytes.Contains(b, []byte(`"created_at":"2026-01-02T02:04:05Z","updated_at":"2026-01-02T02:04:05Z"}`)) || !bytes.Contains(b, []byte(`"tags":[]`)) {
		t.Fatalf("body %s", b)
	}
}
