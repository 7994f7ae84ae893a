package domain

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func query(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestParseQuery(t *testing.T) {
	t.Parallel()
	conds, bad := ParseQuery(query(t, `{
		"orders_count": {"gte": 5, "lte": 10},
		"total_spent": {"gte": "100.50"},
		"tags": {"contains": "VIP", "in": ["a", "b"]},
		"accepts_marketing": true,
		"state": {"in": ["enabled", "invited"]},
		"created_at": {"gte": "-30d", "lte": "2026-12-31"},
		"email": {"contains": "Example"},
		"currency": {"eq": "usd"}
	}`))
	if bad != nil {
		t.Fatal(bad)
	}
	if len(conds) != 11 {
		t.Fatalf("%d conditions: %+v", len(conds), conds)
	}
	byKey := map[string]Condition{}
	for _, c := range conds {
		byKey[c.Field+"."+string(c.Op)] = c
	}
	if c := byKey["orders_count.gte"]; c.Ints[0] != 5 {
		t.Errorf("orders_count: %+v", c)
	}
	if c := byKey["total_spent.gte"]; c.Money.String() != "100.5" {
		t.Errorf("total_spent: %+v", c)
	}
	if c := byKey["tags.contains"]; c.Texts[0] != "vip" {
		t.Errorf("tags are matched lower-case: %+v", c)
	}
	if c := byKey["accepts_marketing.eq"]; !c.Bool {
		t.Errorf("bare value is eq: %+v", c)
	}
	if c := byKey["created_at.gte"]; !c.Time.Relative || c.Time.DaysAgo != 30 || !c.Time.Resolve(now).Equal(now.AddDate(0, 0, -30)) {
		t.Errorf("relative time: %+v", c)
	}
	if c := byKey["created_at.lte"]; !c.Time.Resolve(now).Equal(time.Date(2026, 12, 31, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("date: %+v", c)
	}
	if c := byKey["currency.eq"]; c.Texts[0] != "USD" {
		t.Errorf("currency: %+v", c)
	}

	badCases := map[string]string{
		`{}`:                        "query",
		`{"password": {"eq": "x"}}`: "query.password",
		`{"orders_count; DROP TABLE x": {"eq": 1}}`: "query.orders_count; DROP TABLE x",
		`{"orders_count": {"contains": 1}}`:         "query.orders_count.contains",
		`{"orders_count": {"gte": -1}}`:             "query.orders_count.gte",
		`{"orders_count": {"gte": 1.5}}`:            "query.orders_count.gte",
		`{"orders_count": {"gte": "5"}}`:            "query.orders_count.gte",
		`{"total_spent": {"gte": "lots"}}`:          "query.total_spent.gte",
		`{"accepts_marketing": {"eq": "yes"}}`:      "query.accepts_marketing.eq",
		`{"state": {"in": []}}`:                     "query.state.in",
		`{"state": {"eq": "frozen"}}`:               "query.state.eq",
		`{"created_at": {"gte": "yesterday"}}`:      "query.created_at.gte",
		`{"tags": {"contains": ""}}`:                "query.tags.contains",
		`{"email": {}}`:                             "query.email",
	}
	for q, key := range badCases {
		_, bad := ParseQuery(query(t, q))
		if bad[key] == "" {
			t.Errorf("%s: want a message for %q, got %v", q, key, bad)
		}
	}
	if _, err := NewSegment("s", "  ", query(t, `{"orders_count": {"gte": 1}}`), now); err == nil {
		t.Error("blank name accepted")
	}
}

func TestParseSearch(t *testing.T) {
	t.Parallel()
	s, err := ParseSearch(`ada "van der" email:EX.com tag:VIP state:enabled accepts_marketing:true first_name:Ad unknown:x`)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(s.Terms, "|") != "ada|van der|unknown:x" || s.Email != "ex.com" || s.FirstName != "ad" ||
		len(s.Tags) != 1 || s.Tags[0] != "vip" || len(s.States) != 1 || s.AcceptsMarketing == nil || !*s.AcceptsMarketing {
		t.Fatalf("ParseSearch = %+v", s)
	}
	for _, bad := range []string{"state:frozen", "accepts_marketing:maybe", strings.Repeat("w ", 11)} {
		if _, err := ParseSearch(bad); err == nil {
			t.Errorf("ParseSearch(%q) accepted", bad)
		}
	}
	if w := Words(` "Ada Lovelace"  x `); strings.Join(w, "|") != "ada lovelace|x" {
		t.Errorf("Words = %v", w)
	}
}
