package archtest

import (
	"slices"
	"strings"
	"testing"
)

// storeFree are the packages a module's app, domain, ports and api packages must not
// import, directly or through another package: the database drivers and gorm, and
// platform/db and platform/events that hold them (use cases depend on platform/tx and
// platform/event, the ports these implement: decision 0115), and the HTTP and queue
// frameworks. Each entry is a path or, ending in "/", a path prefix.
var storeFree = []string{
	"gorm.io/",
	"github.com/jackc/",
	"github.com/glebarez/",
	"modernc.org/sqlite",
	modulePath + "/platform/db",
	modulePath + "/platform/events",
	"github.com/gin-gonic/gin",
	"github.com/hibiken/asynq",
}

// forbiddenDep reports which storeFree entry dep falls under, or "".
func forbiddenDep(dep string) string {
	for _, f := range storeFree {
		if dep == f || strings.HasSuffix(f, "/") && strings.HasPrefix(dep, f) || !strings.HasSuffix(f, "/") && strings.HasPrefix(dep, f+"/") {
			return f
		}
	}
	return ""
}

// coreLayer reports whether path is a module's app, domain, ports or api package (or
// one below them).
func coreLayer(path string) bool {
	_, rest, ok := moduleOf(path)
	if !ok {
		return false
	}
	layer, _, _ := strings.Cut(rest, "/")
	return layer == "app" || layer == "domain" || layer == "ports" || layer == "api"
}

// TestCoreLayersReachNoStore fails when a module's app, domain, ports or api package
// pulls in a storeFree package, naming the direct import that brings it.
func TestCoreLayersReachNoStore(t *testing.T) {
	pkgs := listPackages(t)
	deps := map[string][]string{}
	for _, p := range pkgs {
		deps[p.ImportPath] = p.Deps
	}
	checked := 0
	for _, p := range pkgs {
		if !coreLayer(p.ImportPath) {
			continue
		}
		checked++
		if why := pullsIn(p, deps); why != "" {
			t.Errorf("%s %s: app, domain, ports and api reach no store or framework; depend on platform/tx and platform/event", p.ImportPath, why)
		}
	}
	if checked == 0 {
		t.Fatal("no app, domain, ports or api package found")
	}
}

func TestForbiddenDep(t *testing.T) {
	cases := map[string]bool{
		"gorm.io/gorm":                             true,
		"github.com/jackc/pgx/v5/stdlib":           true,
		modulePath + "/platform/db":                true,
		modulePath + "/platform/events":            true,
		modulePath + "/platform/event":             false,
		modulePath + "/platform/tx":                false,
		modulePath + "/platform/dbx":               false,
		"github.com/gin-gonic/gin/binding":         true,
		"github.com/shopspring/decimal":            false,
		"modernc.org/sqlite/lib":                   true,
		"github.com/gocommerce/commerce/modules/x": false,
	}
	for dep, bad := range cases {
		if got := forbiddenDep(dep) != ""; got != bad {
			t.Errorf("forbiddenDep(%s) = %v, want %v", dep, got, bad)
		}
	}
}

// pullsIn explains how p reaches a storeFree package ("imports X" or "imports X, which
// pulls in Y", naming this repository's package when there is one), or returns "".
// deps holds the Deps of this repository's packages.
func pullsIn(p pkg, deps map[string][]string) string {
	for _, imp := range p.Imports {
		if forbiddenDep(imp) != "" {
			return "imports " + imp
		}
	}
	for _, imp := range p.Imports {
		var bad []string
		for _, d := range deps[imp] {
			if forbiddenDep(d) != "" {
				bad = append(bad, d)
			}
		}
		if len(bad) > 0 {
			i := slices.IndexFunc(bad, func(d string) bool { return strings.HasPrefix(d, modulePath+"/") })
			return "imports " + imp + ", which pulls in " + bad[max(i, 0)]
		}
	}
	for _, d := range p.Deps {
		if forbiddenDep(d) != "" {
			return "pulls in " + d
		}
	}
	return ""
}
