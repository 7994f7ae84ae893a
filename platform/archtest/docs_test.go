package archtest

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// moduleTable reads the module table of docs/architecture.md ("## Modules today"): the
// first cell of each row (the module) mapped to its "depends on" cell.
func moduleTable(t *testing.T, doc string) map[string]string {
	t.Helper()
	_, section, ok := strings.Cut(doc, "\n## Modules today\n")
	if !ok {
		t.Fatal(`docs/architecture.md has no "## Modules today" section`)
	}
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	rows := map[string]string{}
	header := true
	for _, line := range strings.Split(section, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "|") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if header || strings.HasPrefix(strings.TrimSpace(cells[0]), "---") {
			header = false // the column names, then the separator
			continue
		}
		if len(cells) != 3 {
			t.Fatalf("module table row %q has %d cells, want 3 (module, owns, depends on)", line, len(cells))
		}
		name := strings.TrimSpace(cells[0])
		if _, dup := rows[name]; dup {
			t.Errorf("module table lists %q twice", name)
		}
		rows[name] = cells[2]
	}
	if len(rows) == 0 {
		t.Fatal("docs/architecture.md's module table has no rows")
	}
	return rows
}

// TestArchitectureDocListsEveryModule keeps docs/architecture.md's module table true:
// a row for every folder under modules/, no row for a module that does not exist, and
// every module whose api package a module imports named in that module's "depends on"
// cell.
func TestArchitectureDocListsEveryModule(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := moduleTable(t, string(raw))

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
	for _, f := range folders {
		if _, ok := rows[f]; !ok {
			t.Errorf("modules/%s has no row in docs/architecture.md's module table", f)
		}
	}
	for name := range rows {
		if !slices.Contains(folders, name) {
			t.Errorf("docs/architecture.md's module table lists %q, which is not a folder under modules/", name)
		}
	}

	// Every other module a module's code imports (its api package) is named in the row.
	uses := map[string]map[string]bool{}
	for _, p := range listPackages(t) {
		from, _, ok := moduleOf(p.ImportPath)
		if !ok {
			continue
		}
		for _, imp := range p.Imports {
			if to, _, ok := moduleOf(imp); ok && to != from {
				if uses[from] == nil {
					uses[from] = map[string]bool{}
				}
				uses[from][to] = true
			}
		}
	}
	for from, tos := range uses {
		deps, ok := rows[from]
		if !ok {
			continue // reported above
		}
		var missing []string
		for to := range tos {
			if !regexp.MustCompile(`\b` + regexp.QuoteMeta(to) + `\b`).MatchString(deps) {
				missing = append(missing, to)
			}
		}
		sort.Strings(missing)
		if len(missing) > 0 {
			t.Errorf("modules/%s imports %v, which its row in docs/architecture.md does not name under \"depends on\": %q", from, missing, strings.TrimSpace(deps))
		}
	}
}

// The table parser reads rows, skips the header and separator, and rejects a short row.
func TestModuleTableParser(t *testing.T) {
	doc := "# A\n\n## Modules today\n\n| module | owns | depends on |\n|---|---|---|\n| a | x | b (api) |\n| b | y | — |\n\n## Next\n| c | z | a |\n"
	rows := moduleTable(t, doc)
	if len(rows) != 2 || strings.TrimSpace(rows["a"]) != "b (api)" || strings.TrimSpace(rows["b"]) != "—" {
		t.Fatalf("rows = %q", rows)
	}
}
