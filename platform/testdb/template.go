package testdb

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
)

// templates remembers the templates this process has made sure of (key → name or path).
var templates sync.Map

// template returns the template of sources on the engine, building it the first time
// any process asks for it: the name of a PostgreSQL template database, or the path of
// an SQLite file. Templates are named by a hash of the migrations, so a changed
// migration gets a new one.
func template(engine string, sources []db.MigrationSource) (string, error) {
	key, err := migrationsKey(engine, sources)
	if err != nil {
		return "", err
	}
	if v, ok := templates.Load(key); ok {
		return v.(string), nil
	}
	var tpl string
	switch engine {
	case "postgres":
		tpl, err = postgresTemplate(key, sources)
	case "sqlite":
		tpl, err = sqliteTemplate(key, sources)
	default:
		err = fmt.Errorf("unknown engine %q", engine)
	}
	if err != nil {
		return "", err
	}
	templates.Store(key, tpl)
	return tpl, nil
}

// migrationsKey hashes the engine, the module names and every migration file.
func migrationsKey(engine string, sources []db.MigrationSource) (string, error) {
	h := sha256.New()
	_, _ = io.WriteString(h, engine+"\x00")
	for _, src := range sources {
		_, _ = io.WriteString(h, src.Module+"\x00")
		err := fs.WalkDir(src.FS, ".", func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := fs.ReadFile(src.FS, path)
			if err != nil {
				return err
			}
			_, _ = fmt.Fprintf(h, "%s\x00%d\x00", path, len(b))
			_, _ = h.Write(b)
			return nil
		})
		if err != nil {
			return "", fmt.Errorf("read the migrations of %s: %w", src.Module, err)
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:24], nil
}

// migrate applies sources to the database at u.
func migrate(u string, sources []db.MigrationSource) error {
	cfg := config.Default()
	cfg.Database.URL = u
	cfg.Database.MaxOpenConns = 2
	d, closeFn, err := db.Open(&cfg, zap.NewNop())
	if err != nil {
		return err
	}
	defer closeFn()
	_, err = db.NewMigrator(d, sources).Up(context.Background())
	return err
}

// postgresTemplate makes sure the template database tpl_<key> exists. One process
// builds it under an advisory lock, as tpl_<key>_b renamed once migrated, so a
// template is never seen half built.
func postgresTemplate(key string, sources []db.MigrationSource) (string, error) {
	name := "tpl_" + key
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	pool, err := sql.Open("pgx", AdminURL())
	if err != nil {
		return "", err
	}
	defer func() { _ = pool.Close() }()
	conn, err := pool.Conn(ctx)
	if err != nil {
		return "", err
	}
	defer func() { _ = conn.Close() }()
	sum := sha256.Sum256([]byte(name))
	lock := int64(binary.BigEndian.Uint64(sum[:8]))
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", lock); err != nil {
		return "", err
	}
	defer func() { _, _ = conn.ExecContext(context.Background(), "SELECT pg_advisory_unlock($1)", lock) }()
	var n int
	if err := conn.QueryRowContext(ctx, "SELECT COUNT(*) FROM pg_database WHERE datname = $1", name).Scan(&n); err != nil {
		return "", err
	}
	if n == 1 {
		return name, nil
	}
	building := name + "_b"
	if _, err := conn.ExecContext(ctx, "DROP DATABASE IF EXISTS "+building+" WITH (FORCE)"); err != nil {
		return "", err
	}
	if _, err := conn.ExecContext(ctx, "CREATE DATABASE "+building); err != nil {
		return "", err
	}
	u, err := url.Parse(AdminURL())
	if err != nil {
		return "", err
	}
	u.Path = "/" + building
	if err := migrate(u.String(), sources); err != nil {
		return "", fmt.Errorf("migrate %s: %w", building, err)
	}
	if _, err := conn.ExecContext(ctx, "ALTER DATABASE "+building+" RENAME TO "+name); err != nil {
		return "", err
	}
	return name, nil
}

// sqliteTemplate makes sure the migrated file <tmp>/commerce-testdb/<key>.db exists,
// built under a unique name and renamed into place.
func sqliteTemplate(key string, sources []db.MigrationSource) (string, error) {
	dir := filepath.Join(os.TempDir(), "commerce-testdb")
	path := filepath.Join(dir, key+".db")
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return "", err
	}
	build, err := os.MkdirTemp(dir, "build-")
	if err != nil {
		return "", err
	}
	defer func() { _ = os.RemoveAll(build) }()
	file := filepath.Join(build, "t.db")
	if err := migrate("sqlite://"+file, sources); err != nil {
		return "", err
	}
	if _, err := os.Stat(file + "-wal"); err == nil {
		return "", errors.New("the template still has a write-ahead log after closing")
	}
	if err := os.Rename(file, path); err != nil {
		return "", err
	}
	return path, nil
}

// copyFile copies the file at from to the new file to.
func copyFile(from, to string) error {
	in, err := os.Open(from) // #nosec G304 -- a template this package made
	if err != nil {
		return err
	}
	defer func() { _ = in.Close() }()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600) // #nosec G304 -- the test's own temp dir
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		_ = out.Close()
		return err
	}
	return out.Close()
}

// createDatabase runs a CREATE DATABASE, again when PostgreSQL answers that the
// template is in use (another process copying it at the same moment).
func createDatabase(ctx context.Context, conn *sql.DB, stmt string) error {
	for attempt := 0; ; attempt++ {
		_, err := conn.ExecContext(ctx, stmt)
		if err == nil || attempt == 50 || !strings.Contains(err.Error(), "is being accessed by other users") {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(time.Duration(20+attempt*10) * time.Millisecond):
		}
	}
}
