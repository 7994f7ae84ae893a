package scaletest

import (
	"context"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// pgTool runs a PostgreSQL client program of the server's version (pg_dump, pg_restore,
// psql) against it, as docs/operations.md "Backups and restore" says to.
func (s *pgServer) pgTool(t *testing.T, prog string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, filepath.Join(s.bin, prog), args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", prog, args, err, out)
	}
	return string(out)
}

// urlOf is the database.url of another database on the server.
func (s *pgServer) urlOf(name string) string {
	return strings.Replace(s.URL(), "/postgres?", "/"+name+"?", 1)
}

// The documented backup and restore: pg_dump in the custom format while the API
// serves, pg_restore into an empty database, and a serve process on the restored
// database answers what was there, with every migration applied (migrate status).
func TestBackupAndRestore(t *testing.T) {
	guard(t)
	t.Parallel()
	c := newCluster(t)
	a := newAPI(t, c.adminKey())
	s := c.serve()
	ids := productIDs(t, a, s, "backup", 3)

	dump := filepath.Join(t.TempDir(), "commerce.dump")
	c.pg.pgTool(t, "pg_dump", "--format=custom", "--no-owner", "--file="+dump, c.pg.URL())
	c.pg.pgTool(t, "psql", c.pg.URL(), "-v", "ON_ERROR_STOP=1", "-c", "CREATE DATABASE restored")
	c.pg.pgTool(t, "pg_restore", "--no-owner", "--exit-on-error", "--dbname="+c.pg.urlOf("restored"), dump)

	// Everything of the cluster but the database.
	restored := &cluster{t: t, bin: c.bin, dir: t.TempDir(), pg: c.pg, redis: c.redis}
	for _, kv := range c.env {
		if !strings.HasPrefix(kv, "DATABASE_URL=") {
			restored.env = append(restored.env, kv)
		}
	}
	restored.env = append(restored.env, "DATABASE_URL="+c.pg.urlOf("restored"))
	t.Cleanup(restored.stopAll)
	st := restored.cli("migrate", "status")
	for _, line := range strings.Split(strings.TrimSpace(st), "\n") {
		if f := strings.Fields(line); len(f) < 2 || f[1] != "applied" {
			t.Fatalf("migration not applied on the restored database: %q\n%s", line, st)
		}
	}
	if up := restored.cli("migrate", "up"); !strings.Contains(up, "nothing to do") {
		t.Fatalf("migrate up on the restored database applied something:\n%s", up)
	}
	r := restored.serve()
	for _, id := range ids {
		a.must(http.StatusOK, r.url(), "GET", "/api/v1/products/"+id, nil)
	}
	// The restored API key still authenticates (it is in the dump): must above used it.
}
