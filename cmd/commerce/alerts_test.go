package main

import (
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/knadh/koanf/parsers/yaml"

	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/testdb"
)

// alertRulesFile is the example Prometheus rules file of docs/operations.md.
const alertRulesFile = "../../deployments/prometheus-alerts.yml"

// promqlMetrics names the metrics a PromQL expression reads: its identifiers less
// label matchers, strings, ranges, grouping clauses, functions and keywords.
func promqlMetrics(expr string) []string {
	for _, re := range []string{`"(?:[^"\\]|\\.)*"`, `\{[^}]*\}`, `\[[^\]]*\]`, `\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)`} {
		expr = regexp.MustCompile(re).ReplaceAllString(expr, " ")
	}
	keywords := map[string]bool{"and": true, "or": true, "unless": true, "bool": true, "offset": true, "inf": true, "nan": true}
	var names []string
	for _, m := range regexp.MustCompile(`[A-Za-z_:][A-Za-z0-9_:]*\s*\(?`).FindAllString(expr, -1) {
		if strings.HasSuffix(m, "(") {
			continue // a function or aggregation
		}
		if m = strings.TrimSpace(m); !keywords[strings.ToLower(m)] {
			names = append(names, m)
		}
	}
	return names
}

// exportedMetrics scrapes /metrics of a served app after the traffic that makes every
// labelled family appear (a request, a refused one) and lists the series names a
// query may use (histograms: _bucket, _sum, _count).
func exportedMetrics(t *testing.T) map[string]bool {
	t.Helper()
	ta := newTestApp(t, testdb.Primary(), func(c *config.Config) {
		c.RateLimiting.Anonymous = config.Limit{RequestsPerMinute: 1, BurstCapacity: 1, RequestsPerHour: 100}
	})
	refused := false
	for range 5 {
		if ta.do("POST", "/api/v1/carts/guest", map[string]any{"currency": "EUR"}).Status == http.StatusTooManyRequests {
			refused = true
		}
	}
	if !refused {
		t.Fatal("no request was refused: commerce_rate_limit_rejected_total would be missing")
	}
	r := ta.do("GET", "/metrics", nil)
	if r.Status != http.StatusOK {
		t.Fatalf("/metrics: %d", r.Status)
	}
	names := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^# TYPE (\S+) (\S+)$`).FindAllStringSubmatch(string(r.Body), -1) {
		names[m[1]] = true
		switch m[2] {
		case "histogram":
			names[m[1]+"_bucket"], names[m[1]+"_sum"], names[m[1]+"_count"] = true, true, true
		case "summary":
			names[m[1]+"_sum"], names[m[1]+"_count"] = true, true
		}
	}
	return names
}

// The example alerting rules (deployments/prometheus-alerts.yml) are a valid rules
// file (YAML, groups of named rules with an expression, a duration, a severity and a
// summary) and read only metrics `commerce serve` exports, and Prometheus's own `up`.
func TestAlertRulesReadExportedMetrics(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(alertRulesFile)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := yaml.Parser().Unmarshal(raw)
	if err != nil {
		t.Fatalf("%s is not YAML: %v", alertRulesFile, err)
	}
	groups, _ := doc["groups"].([]any)
	if len(groups) == 0 {
		t.Fatalf("%s: no groups", alertRulesFile)
	}
	exported := exportedMetrics(t)
	exported["up"] = true // Prometheus's own, per scrape target
	seen := map[string]bool{}
	rules := 0
	for _, g := range groups {
		group, _ := g.(map[string]any)
		if name, _ := group["name"].(string); name == "" {
			t.Fatalf("a group without a name: %v", group)
		}
		list, _ := group["rules"].([]any)
		for _, r := range list {
			rule, _ := r.(map[string]any)
			alert, _ := rule["alert"].(string)
			expr, _ := rule["expr"].(string)
			if alert == "" || strings.TrimSpace(expr) == "" {
				t.Fatalf("a rule without alert or expr: %v", rule)
			}
			if seen[alert] {
				t.Fatalf("alert %s defined twice", alert)
			}
			seen[alert] = true
			rules++
			if d, _ := rule["for"].(string); d != "" {
				if _, err := time.ParseDuration(d); err != nil {
					t.Errorf("%s: for %q: %v", alert, d, err)
				}
			}
			labels, _ := rule["labels"].(map[string]any)
			annotations, _ := rule["annotations"].(map[string]any)
			if labels["severity"] == nil || annotations["summary"] == nil {
				t.Errorf("%s: needs labels.severity and annotations.summary", alert)
			}
			metrics := promqlMetrics(expr)
			if len(metrics) == 0 {
				t.Errorf("%s: no metric in %q", alert, expr)
			}
			for _, m := range metrics {
				if !exported[m] {
					t.Errorf("%s reads %s, which the server does not export", alert, m)
				}
			}
		}
	}
	if rules < 5 {
		t.Fatalf("only %d rules", rules)
	}
}

// The metric-name reader of the test finds what it must.
func TestPromqlMetrics(t *testing.T) {
	t.Parallel()
	got := promqlMetrics(`histogram_quantile(0.99, sum by (le) (rate(commerce_http_request_duration_seconds_bucket{job="commerce", route!="/x"}[5m]))) > 1 and up{job="a"} == 0 or process_open_fds / process_max_fds > 0.8`)
	want := "commerce_http_request_duration_seconds_bucket up process_open_fds process_max_fds"
	if strings.Join(got, " ") != want {
		t.Fatalf("got %v, want %s", got, want)
	}
}
