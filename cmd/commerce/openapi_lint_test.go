package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/testdb"
)

// lintDir holds the pinned linter (package.json, package-lock.json) and its configuration.
const lintDir = "../../tools/openapi-lint"

// The served document passes `redocly lint` (recommended rules, tools/openapi-lint/
// redocly.yaml) with no error and no warning: what a client generator's user sees first.
func TestOpenAPILint(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t, testdb.Primary(), nil)
	linter := pinnedLinter(t)

	res := ta.do(http.MethodGet, "/api/v1/openapi.json", nil)
	if res.Status != http.StatusOK {
		t.Fatalf("GET /api/v1/openapi.json = %d", res.Status)
	}
	var pretty bytes.Buffer // one line per member, so problems point at readable lines
	if err := json.Indent(&pretty, res.Body, "", "  "); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "openapi.json")
	if err := os.WriteFile(file, pretty.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}

	config, err := filepath.Abs(filepath.Join(lintDir, "redocly.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	out, stderr, err := runLinter(t, linter, "lint", "--config", config, "--format", "json", file)
	var report struct {
		Totals   struct{ Errors, Warnings int }
		Problems []struct {
			RuleID   string `json:"ruleId"`
			Severity string
			Message  string
			Location []struct{ Pointer string }
		}
	}
	if jerr := json.Unmarshal(out, &report); jerr != nil {
		t.Fatalf("redocly lint gave no report (%v, %v)\nstdout: %s\nstderr: %s", err, jerr, out, stderr)
	}
	for _, p := range report.Problems {
		where := ""
		if len(p.Location) > 0 {
			where = p.Location[0].Pointer
		}
		t.Errorf("%s %s at %s: %s", p.Severity, p.RuleID, where, p.Message)
	}
	if report.Totals.Errors+report.Totals.Warnings != len(report.Problems) || (err != nil && len(report.Problems) == 0) {
		t.Errorf("redocly lint: %d errors, %d warnings, exit %v\nstderr: %s", report.Totals.Errors, report.Totals.Warnings, err, stderr)
	}

	// The nullable objects (typed for nullable-type-sibling) still accept null and still
	// check the object.
	schemas := ta.doc.Components.Schemas
	for _, f := range [][2]string{
		{"Coupon", "buy_x_get_y"}, {"PublicCoupon", "buy_x_get_y"},
		{"Customer", "default_address"}, {"CustomerSummary", "default_address"},
		{"Order", "shipping_address"}, {"Order", "billing_address"}, {"Order", "client_details"},
		{"OrderUpdate", "shipping_address"}, {"OrderUpdate", "billing_address"},
	} {
		s := schemas[f[0]].Value.Properties[f[1]].Value
		if err := s.VisitJSON(nil); err != nil {
			t.Errorf("%s.%s refuses null: %v", f[0], f[1], err)
		}
		if err := s.VisitJSON("x"); err == nil {
			t.Errorf("%s.%s accepts a string", f[0], f[1])
		}
		if len(s.AllOf) != 1 || s.AllOf[0].Ref == "" {
			t.Errorf("%s.%s lost its $ref", f[0], f[1])
		}
	}

	// no-ambiguous-paths is off in redocly.yaml only for the spec's own pairs; any other
	// ambiguous pair still fails here.
	var paths []string
	for p := range ta.doc.Paths.Map() {
		paths = append(paths, p)
	}
	if bad := ambiguousPaths(paths, []string{"/api/v1/customers/segments", "/api/v1/payments/saved-methods", "/api/v1/notifications/templates"}); len(bad) > 0 {
		t.Errorf("ambiguous paths (a static segment crosses a parameter both ways): %v", bad)
	}
}

// ambiguousPaths returns the pairs of path templates that one URL could match both of
// (each has a static segment where the other has a parameter), except pairs where the
// static side is one of the allowed prefixes, which the router matches first.
func ambiguousPaths(paths, allowed []string) []string {
	isParam := func(s string) bool { return strings.HasPrefix(s, "{") }
	allowedStatic := func(segs []string, i int) bool {
		prefix := strings.Join(segs[:i+1], "/")
		for _, a := range allowed {
			if prefix == a {
				return true
			}
		}
		return false
	}
	sort.Strings(paths)
	var bad []string
	for i, a := range paths {
		as := strings.Split(a, "/")
		for _, b := range paths[i+1:] {
			bs := strings.Split(b, "/")
			if len(as) != len(bs) {
				continue
			}
			match, aStatic, bStatic, excused := true, false, false, false
			for k := range as {
				switch {
				case as[k] == bs[k], isParam(as[k]) && isParam(bs[k]):
				case isParam(bs[k]):
					aStatic = true
					excused = excused || allowedStatic(as, k)
				case isParam(as[k]):
					bStatic = true
					excused = excused || allowedStatic(bs, k)
				default:
					match = false
				}
			}
			if match && aStatic && bStatic && !excused {
				bad = append(bad, a+" ~ "+b)
			}
		}
	}
	return bad
}

func TestAmbiguousPaths(t *testing.T) {
	t.Parallel()
	paths := []string{"/c/{id}/orders", "/c/segments/{sid}", "/c/search", "/c/{id}", "/p/{id}/refund", "/p/saved/{token}"}
	got := ambiguousPaths(paths, []string{"/c/segments"})
	if len(got) != 1 || got[0] != "/p/saved/{token} ~ /p/{id}/refund" {
		t.Fatalf("ambiguousPaths = %v", got)
	}
}

// pinnedLinter returns the path of the redocly CLI pinned by tools/openapi-lint's lock
// file, installing it with `npm ci` when it is missing or another version.
func pinnedLinter(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: the OpenAPI lint (tools/openapi-lint) did not run; install Node.js 20.19+ or 22.12+")
	}
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm is not installed: the OpenAPI lint (tools/openapi-lint) did not run")
	}
	dir, err := filepath.Abs(lintDir)
	if err != nil {
		t.Fatal(err)
	}
	var lock struct {
		Packages map[string]struct{ Version string } `json:"packages"`
	}
	raw, err := os.ReadFile(filepath.Join(dir, "package-lock.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &lock); err != nil {
		t.Fatal(err)
	}
	want := lock.Packages["node_modules/@redocly/cli"].Version
	if want == "" {
		t.Fatal("tools/openapi-lint/package-lock.json does not pin @redocly/cli")
	}
	cli := filepath.Join(dir, "node_modules", "@redocly", "cli")
	if installedVersion(cli) != want {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "npm", "ci", "--prefix", dir, "--no-audit", "--no-fund")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci --prefix tools/openapi-lint: %v\n%s", err, out)
		}
		if got := installedVersion(cli); got != want {
			t.Fatalf("npm ci installed @redocly/cli %q, the lock file pins %q", got, want)
		}
	}
	return filepath.Join(cli, "bin", "cli.js")
}

func installedVersion(pkgDir string) string {
	raw, err := os.ReadFile(filepath.Join(pkgDir, "package.json"))
	if err != nil {
		return ""
	}
	var pkg struct{ Version string }
	_ = json.Unmarshal(raw, &pkg)
	return pkg.Version
}

func runLinter(t *testing.T, cli string, args ...string) (stdout, stderr []byte, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", append([]string{cli}, args...)...)
	// No telemetry, update checks or colours in tests.
	cmd.Env = append(os.Environ(), "REDOCLY_TELEMETRY=off", "REDOCLY_SUPPRESS_UPDATE_NOTICE=true", "NO_COLOR=1", "CI=true")
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	if ctx.Err() != nil {
		err = fmt.Errorf("timed out: %w", ctx.Err())
	}
	return o.Bytes(), e.Bytes(), err
}
