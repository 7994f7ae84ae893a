package archtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"strings"
	"testing"
)

const modulePath = "github.com/gocommerce/commerce"

type pkg struct {
	ImportPath   string
	Imports      []string
	TestImports  []string
	XTestImports []string
	Deps         []string // every package the code imports, directly or not (go list -deps)
}

func listPackages(t *testing.T) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-json", modulePath+"/...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	var pkgs []pkg
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("decode: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) == 0 {
		t.Fatal("no packages listed")
	}
	return pkgs
}

// moduleOf returns the module name and the rest of the path for modules/<name>/...
func moduleOf(path string) (name, rest string, ok bool) {
	p, found := strings.CutPrefix(path, modulePath+"/modules/")
	if !found {
		return "", "", false
	}
	name, rest, _ = strings.Cut(p, "/")
	return name, rest, true
}

// Violation explains why from may not import to, or "" when it may.
func violation(from, to string) string {
	if !strings.HasPrefix(to, modulePath+"/") {
		return ""
	}
	fromMod, fromRest, fromIsMod := moduleOf(from)
	toMod, toRest, toIsMod := moduleOf(to)
	switch {
	case strings.HasPrefix(from, modulePath+"/platform/") && toIsMod:
		return "platform must not import modules"
	case fromIsMod && toIsMod && fromMod != toMod && strings.SplitN(fromRest, "/", 2)[0] == "app":
		return "use cases reach other modules only through their own ports"
	case fromIsMod && toIsMod && fromMod != toMod && toRest != "api" && !strings.HasPrefix(toRest, "api/"):
		return "modules meet only at their api package"
	case fromIsMod && toIsMod && fromMod == toMod:
		layer := strings.SplitN(fromRest, "/", 2)[0]
		target := strings.SplitN(toRest, "/", 2)[0]
		if (layer == "domain" || layer == "api") && target != "domain" && target != "api" {
			return layer + " may import only domain and api of its own module"
		}
		if layer == "ports" && target != "domain" && target != "api" && target != "ports" {
			return "ports may import only its own domain"
		}
		if layer == "app" && (target == "adapters" || toRest == "") {
			return "app must not import adapters or the module root"
		}
	}
	return ""
}

func TestImportGraph(t *testing.T) {
	for _, p := range listPackages(t) {
		imports := append(append(append([]string{}, p.Imports...), p.TestImports...), p.XTestImports...)
		for _, imp := range imports {
			if v := violation(p.ImportPath, imp); v != "" {
				t.Errorf("%s imports %s: %s", p.ImportPath, imp, v)
			}
		}
	}
}

func TestViolationRules(t *testing.T) {
	m := modulePath + "/modules/"
	cases := []struct {
		from, to string
		bad      bool
	}{
		{m + "carts/app", m + "catalog/api", true},
		{m + "carts/adapters/catalogapi", m + "catalog/api", false},
		{m + "carts/adapters/catalogapi", m + "catalog/domain", true},
		{modulePath + "/platform/httpx", m + "carts/api", true},
		{m + "carts/domain", m + "carts/adapters/postgres", true},
		{m + "carts/app", m + "carts/adapters/http", true},
		{m + "carts/app", m + "carts/ports", false},
		{m + "carts", m + "carts/adapters/http", false},
		{modulePath + "/cmd/commerce", m + "carts", false},
	}
	for _, c := range cases {
		if got := violation(c.from, c.to) != ""; got != c.bad {
			t.Errorf("violation(%s, %s) = %v, want %v", c.from, c.to, got, c.bad)
		}
	}
}
