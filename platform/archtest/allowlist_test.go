package archtest

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// apiImports is the allow-list of module boundaries: each module (every folder under
// modules/ has an entry) → the modules whose api packages (api and api/...) its code and
// its tests may import. TestModuleAllowList fails on an import not listed and on an entry
// no import uses, and docs/architecture.md's module table names exactly these modules
// under "depends on" (TestArchitectureDocListsEveryModule). A new dependency is a change
// here, in the module's row of the table and in the wire graph, reviewed together;
// reacting to another module's events needs only its api's payload types (decision 0115).
var apiImports = map[string][]string{
	"carts":         {"catalog", "coupons", "customers", "tax"},
	"catalog":       {"orders"},
	"checkout":      {"carts", "catalog", "coupons", "inventory", "orders", "payments", "shipping", "tax"},
	"coupons":       {"carts", "customers"},
	"customers":     {"carts", "identity", "notifications", "orders", "statistics", "subscriptions"},
	"identity":      {"customers"},
	"inventory":     {"catalog"},
	"notifications": {"carts", "catalog", "checkout", "customers", "orders", "payments", "webhooks"},
	"orders":        {"catalog", "coupons", "customers", "inventory", "payments", "shipping"},
	"payments":      {"customers"},
	"tax":           {},
	"shipping":      {"orders"},
	"statistics":    {"catalog", "customers", "orders", "subscriptions"},
	"webhooks":      {},
	"subscriptions": {"catalog", "customers", "notifications", "orders", "payments"},
}

// moduleFolders lists the folders under modules/.
func moduleFolders(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join("..", "..", "modules"))
	if err != nil {
		t.Fatal(err)
	}
	var folders []string
	for _, e := range entries {
		if e.IsDir() {
			folders = append(folders, e.Name())
		}
	}
	return folders
}

// crossModule lists, per module, the other modules its packages (code and tests) import,
// each with one importing package as the example.
func crossModule(pkgs []pkg) map[string]map[string]string {
	uses := map[string]map[string]string{}
	for _, p := range pkgs {
		from, _, ok := moduleOf(p.ImportPath)
		if !ok {
			continue
		}
		for _, imp := range slices.Concat(p.Imports, p.TestImports, p.XTestImports) {
			to, _, ok := moduleOf(imp)
			if !ok || to == from {
				continue
			}
			if uses[from] == nil {
				uses[from] = map[string]string{}
			}
			if _, seen := uses[from][to]; !seen {
				uses[from][to] = p.ImportPath + " imports " + imp
			}
		}
	}
	return uses
}

// folderKeys reports each folder m has no key for (noKey, with the folder) and each key
// of m that is no folder (noFolder, with the key).
func folderKeys[V any](m map[string]V, folders []string, noKey, noFolder string) []string {
	var problems []string
	for _, f := range folders {
		if _, ok := m[f]; !ok {
			problems = append(problems, fmt.Sprintf(noKey, f))
		}
	}
	for k := range m {
		if !slices.Contains(folders, k) {
			problems = append(problems, fmt.Sprintf(noFolder, k))
		}
	}
	return problems
}

// allowListProblems compares the modules' imports of each other with the allow-list.
func allowListProblems(allow map[string][]string, folders []string, uses map[string]map[string]string) []string {
	problems := folderKeys(allow, folders,
		"modules/%s has no entry in apiImports (platform/archtest/allowlist_test.go); add one, empty if it imports no other module",
		"apiImports lists %q, which is not a folder under modules/")
	for _, from := range folders {
		for _, to := range allow[from] {
			if _, used := uses[from][to]; !used {
				problems = append(problems, fmt.Sprintf("apiImports lets %s import %s's api, which no package of %s imports: remove the entry", from, to, from))
			}
		}
	}
	for from, tos := range uses {
		for to, example := range tos {
			if !slices.Contains(allow[from], to) {
				problems = append(problems, fmt.Sprintf("%s: %s may not import %s (apiImports in platform/archtest/allowlist_test.go); a new module dependency goes there and in docs/architecture.md's module table, or reach %s by its events", example, from, to, to))
			}
		}
	}
	sort.Strings(problems)
	return problems
}

// TestModuleAllowList keeps every module's imports of other modules to its entry in
// apiImports, and every entry in use.
func TestModuleAllowList(t *testing.T) {
	for _, p := range allowListProblems(apiImports, moduleFolders(t), crossModule(listPackages(t))) {
		t.Error(p)
	}
}

func TestAllowListProblems(t *testing.T) {
	folders := []string{"a", "b", "c"}
	allow := map[string][]string{"a": {"b"}, "b": {}, "c": {"a"}}
	uses := map[string]map[string]string{"a": {"b": "a/x imports b/api"}, "c": {"a": "c/y imports a/api"}}
	if got := allowListProblems(allow, folders, uses); len(got) != 0 {
		t.Fatalf("a tight allow-list: %q", got)
	}
	uses["b"] = map[string]string{"c": "b/adapters/capi imports c/api"} // not allowed
	delete(uses, "c")                                                   // c's entry unused
	delete(allow, "a")                                                  // a has no entry
	allow["d"] = nil                                                    // no folder d
	got := strings.Join(allowListProblems(allow, folders, uses), "\n")
	for _, want := range []string{
		"modules/a has no entry",
		`apiImports lists "d"`,
		"apiImports lets c import a's api, which no package of c imports",
		"b/adapters/capi imports c/api: b may not import c",
		"a/x imports b/api: a may not import b",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("problems lack %q:\n%s", want, got)
		}
	}
}
