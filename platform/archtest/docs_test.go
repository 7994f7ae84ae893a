package archtest

import (
	"fmt"
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
// each row's "depends on" cell naming exactly the modules of its apiImports entry (the
// allow-list the imports are checked against: TestModuleAllowList) among the modules
// that exist (a cell may also name modules still to come).
func TestArchitectureDocListsEveryModule(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range docProblems(moduleTable(t, string(raw)), moduleFolders(t), apiImports) {
		t.Error(p)
	}
}

// docProblems compares the module table's rows with the folders and the allow-list.
func docProblems(rows map[string]string, folders []string, allow map[string][]string) []string {
	problems := folderKeys(rows, folders,
		"modules/%s has no row in docs/architecture.md's module table",
		"docs/architecture.md's module table lists %q, which is not a folder under modules/")
	for _, name := range folders {
		deps, ok := rows[name]
		if !ok {
			continue // reported above
		}
		var missing, extra []string
		for _, other := range folders {
			named := regexp.MustCompile(`\b` + regexp.QuoteMeta(other) + `\b`).MatchString(deps)
			allowed := slices.Contains(allow[name], other)
			switch {
			case allowed && !named:
				missing = append(missing, other)
			case named && !allowed && other != name:
				extra = append(extra, other)
			}
		}
		if len(missing) > 0 {
			problems = append(problems, fmt.Sprintf("modules/%s may import %v (apiImports), which its row in docs/architecture.md does not name under \"depends on\": %q", name, missing, strings.TrimSpace(deps)))
		}
		if len(extra) > 0 {
			problems = append(problems, fmt.Sprintf("docs/architecture.md's row of %s names %v under \"depends on\", which apiImports does not let it import: %q", name, extra, strings.TrimSpace(deps)))
		}
	}
	sort.Strings(problems)
	return problems
}

func TestDocProblems(t *testing.T) {
	folders := []string{"a", "b", "c"}
	allow := map[string][]string{"a": {"b"}, "b": nil, "c": {"a", "b"}}
	rows := map[string]string{"a": " b (api) ", "b": " — ", "c": " a, b (api); reacts to `a.created` "}
	if got := docProblems(rows, folders, allow); len(got) != 0 {
		t.Fatalf("a true table: %q", got)
	}
	rows["a"] = " c (api) " // misses b, names c
	delete(rows, "b")
	rows["d"] = " — "
	got := strings.Join(docProblems(rows, folders, allow), "\n")
	for _, want := range []string{
		"modules/b has no row",
		`lists "d", which is not a folder`,
		"modules/a may import [b] (apiImports), which its row",
		"row of a names [c] under",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("problems lack %q:\n%s", want, got)
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
