package main

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/redis/go-redis/v9"
)

var dbName = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,62}$`)

func dbFlags(name string, args []string) (admin, db string, err error) {
	fs := flag.NewFlagSet(name, flag.ExitOnError)
	fs.StringVar(&admin, "admin-url", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable", "connection to an existing database")
	fs.StringVar(&db, "db", "", "database name")
	if err := fs.Parse(args); err != nil {
		return "", "", err
	}
	if !dbName.MatchString(db) {
		return "", "", fmt.Errorf("-db %q: lower-case letters, digits and _ only", db)
	}
	return admin, db, nil
}

func adminExec(admin, sql string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql)
	return err
}

// cmdCreateDB creates the run's database (the name is validated, so it is safe to quote).
func cmdCreateDB(args []string) error {
	admin, db, err := dbFlags("createdb", args)
	if err != nil {
		return err
	}
	return adminExec(admin, `CREATE DATABASE "`+db+`"`)
}

// cmdDropDB drops the run's database, closing its remaining connections.
func cmdDropDB(args []string) error {
	admin, db, err := dbFlags("dropdb", args)
	if err != nil {
		return err
	}
	return adminExec(admin, `DROP DATABASE IF EXISTS "`+db+`" WITH (FORCE)`)
}

func redisFlags(name string, args []string) (*redis.Client, error) {
	fs := flag.NewFlagSet(name, flag.ExitOnError)
	url := fs.String("url", "", "redis://host:port/db")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	opt, err := redis.ParseURL(*url)
	if err != nil {
		return nil, err
	}
	return redis.NewClient(opt), nil
}

// cmdRedisCheck fails unless the Redis database is reachable and empty: the run flushes
// it at the end and must not destroy anybody else's data.
func cmdRedisCheck(args []string) error {
	return withRedis("redis-check", args, func(ctx context.Context, rdb *redis.Client) error {
		n, err := rdb.DBSize(ctx).Result()
		if err != nil {
			return err
		}
		if n != 0 {
			return fmt.Errorf("redis database %d holds %d keys; choose an empty one with BENCH_REDIS_DB", rdb.Options().DB, n)
		}
		info, err := rdb.Info(ctx, "server").Result()
		if err != nil {
			return err
		}
		for _, line := range strings.Split(info, "\n") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(line), "redis_version:"); ok {
				fmt.Println(v)
			}
		}
		return nil
	})
}

// cmdRedisFlush empties the run's Redis database (rate-limit counters, job queues).
func cmdRedisFlush(args []string) error {
	return withRedis("redis-flush", args, func(ctx context.Context, rdb *redis.Client) error {
		return rdb.FlushDB(ctx).Err()
	})
}

// withRedis runs fn with the client the command's flags name and a 10 s deadline.
func withRedis(name string, args []string, fn func(context.Context, *redis.Client) error) error {
	rdb, err := redisFlags(name, args)
	if err != nil {
		return err
	}
	defer rdb.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return fn(ctx, rdb)
}

// cmdSQL runs one statement and prints each row's columns separated by tabs.
func cmdSQL(args []string) error {
	fs := flag.NewFlagSet("sql", flag.ExitOnError)
	url := fs.String("url", os.Getenv("DATABASE_URL"), "database")
	query := fs.String("query", "", "SQL")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, *url)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, *query, pgx.QueryExecModeSimpleProtocol)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			return err
		}
		parts := make([]string, len(vals))
		for i, v := range vals {
			parts[i] = fmt.Sprint(v)
		}
		fmt.Println(strings.Join(parts, "\t"))
	}
	return rows.Err()
}

// procStatus reads fields (kB) of /proc/<pid>/status.
func procStatus(pid int) (map[string]int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]int64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok || (!strings.HasPrefix(k, "Vm") && !strings.HasPrefix(k, "Rss")) {
			continue
		}
		if n, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64); err == nil {
			out[k] = n
		}
	}
	return out, sc.Err()
}

// cmdRSS prints "VmRSS VmHWM RssAnon RssFile" of a process in kB.
func cmdRSS(args []string) error {
	fs := flag.NewFlagSet("rss", flag.ExitOnError)
	pid := fs.Int("pid", 0, "process id")
	if err := fs.Parse(args); err != nil {
		return err
	}
	st, err := procStatus(*pid)
	if err != nil {
		return err
	}
	fmt.Println(st["VmRSS"], st["VmHWM"], st["RssAnon"], st["RssFile"])
	return nil
}

// resetHWM resets a process's peak RSS (VmHWM) to its current RSS (Linux clear_refs 5).
func resetHWM(pid int) error {
	return os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0)
}

func cmdResetHWM(args []string) error {
	fs := flag.NewFlagSet("reset-hwm", flag.ExitOnError)
	pid := fs.Int("pid", 0, "process id")
	if err := fs.Parse(args); err != nil {
		return err
	}
	return resetHWM(*pid)
}

// cmdWaitHTTP waits until url answers 200 or the timeout passes.
func cmdWaitHTTP(args []string) error {
	fs := flag.NewFlagSet("wait-http", flag.ExitOnError)
	url := fs.String("url", "", "URL")
	timeout := fs.Duration("timeout", 30*time.Second, "give up after")
	pid := fs.Int("pid", 0, "fail at once when this process has exited")
	if err := fs.Parse(args); err != nil {
		return err
	}
	deadline := time.Now().Add(*timeout)
	var last error
	for time.Now().Before(deadline) {
		if *pid > 0 {
			if _, err := os.Stat(fmt.Sprintf("/proc/%d", *pid)); err != nil {
				return fmt.Errorf("process %d exited", *pid)
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, *url, nil)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				cancel()
				return nil
			}
			err = errors.New(resp.Status)
		}
		cancel()
		last = err
		time.Sleep(200 * time.Millisecond)
	}
	return fmt.Errorf("%s: not ready after %s: %w", *url, *timeout, last)
}

// vacuum runs VACUUM (ANALYZE) on the database.
func vacuum(url string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return fmt.Errorf("vacuum: %w", err)
	}
	defer func() { _ = conn.Close(ctx) }()
	if _, err := conn.Exec(ctx, "VACUUM (ANALYZE)"); err != nil {
		return fmt.Errorf("vacuum: %w", err)
	}
	return nil
}

// cmdOutbox prints the number of pending (unpublished) outbox events and, with -wait,
// waits until none is left (the relay of a running server drains them), printing
// "<pending at start> <seconds to drain>" (-1 seconds: not drained in time).
func cmdOutbox(args []string) error {
	fs := flag.NewFlagSet("outbox", flag.ExitOnError)
	url := fs.String("url", os.Getenv("DATABASE_URL"), "database")
	wait := fs.Duration("wait", 0, "wait up to this long for the backlog to drain")
	if err := fs.Parse(args); err != nil {
		return err
	}
	first, secs, err := drainOutbox(*url, *wait)
	switch {
	case err != nil:
		return err
	case *wait == 0:
		fmt.Println(first)
	case secs < 0:
		fmt.Println(first, -1)
	default:
		fmt.Printf("%d %.1f\n", first, secs)
	}
	return nil
}

// drainOutbox counts the pending outbox events and, with wait > 0, waits up to wait
// until none is left (a running server's relay delivers them): the count at the start
// and the seconds it took (-1: not drained in time; 0 without wait).
func drainOutbox(url string, wait time.Duration) (first int64, secs float64, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), wait+30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return 0, 0, err
	}
	defer func() { _ = conn.Close(ctx) }()
	pending := func() (int64, error) {
		var n int64
		err := conn.QueryRow(ctx, "SELECT count(*) FROM outbox_events WHERE published_at IS NULL AND attempts < 10").Scan(&n)
		return n, err
	}
	start := time.Now()
	if first, err = pending(); err != nil || wait == 0 {
		return first, 0, err
	}
	for n := first; n > 0; {
		if time.Since(start) > wait {
			return first, -1, nil
		}
		time.Sleep(200 * time.Millisecond)
		if n, err = pending(); err != nil {
			return first, 0, err
		}
	}
	return first, time.Since(start).Seconds(), nil
}

// walStat is the cluster's WAL written so far (pg_stat_wal): records, full-page images
// and bytes. WAL follows the rows and index entries a request writes, whatever the
// host's speed; it is cluster-wide, so other databases' writes count too.
type walStat struct {
	records, fpi, bytes float64
	lsn                 string // pg_current_wal_lsn()
}

// readWAL reads pg_stat_wal (zero, and no error, without a URL).
func readWAL(url string) (walStat, error) {
	var w walStat
	if url == "" {
		return w, nil
	}
	err := queryRow(url, "SELECT wal_records::float8, wal_fpi::float8, wal_bytes::float8, pg_current_wal_lsn()::text FROM pg_stat_wal", nil,
		&w.records, &w.fpi, &w.bytes, &w.lsn)
	return w, err
}

// queryRow runs a one-row query on a connection of its own.
func queryRow(url, query string, args []any, dest ...any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer func() { _ = conn.Close(ctx) }()
	return conn.QueryRow(ctx, query, args...).Scan(dest...)
}

// cmdWALDump writes the account of the WAL from --from to --to (LSNs; --to defaults
// to now) that a load run writes per window (dumpWAL).
func cmdWALDump(args []string) error {
	fs := flag.NewFlagSet("waldump", flag.ExitOnError)
	url := fs.String("url", os.Getenv("DATABASE_URL"), "database (names the relations)")
	walDir := fs.String("wal-dir", "", "the cluster's pg_wal directory (default: the database's data_directory/pg_wal)")
	from := fs.String("from", "", "start LSN")
	to := fs.String("to", "", "end LSN (default: the current one)")
	out := fs.String("out", "/dev/stdout", "where the account goes")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *walDir == "" {
		// The server's data directory (a superuser's or pg_read_all_settings' read).
		var dir string
		if err := queryRow(*url, "SELECT current_setting('data_directory')", nil, &dir); err != nil {
			return err
		}
		*walDir = filepath.Join(dir, "pg_wal")
	}
	if *to == "" {
		w, err := readWAL(*url)
		if err != nil {
			return err
		}
		*to = w.lsn
	}
	return dumpWAL(*url, *walDir, *from, *to, *out)
}

// dumpWAL writes an account of the WAL between two positions to path: pg_waldump's
// per-record-type statistics, then the records and bytes per relation (table, index,
// TOAST) and record type, the relations named from the database at url: which rows,
// index entries and commits a window wrote. walDir is the cluster's pg_wal directory
// (readable by this process).
func dumpWAL(url, walDir, from, to, path string) error {
	bin, err := exec.LookPath("pg_waldump")
	if err != nil {
		found, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pg_waldump")
		if len(found) == 0 {
			return errors.New("pg_waldump not found")
		}
		bin = found[len(found)-1]
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	stats, err := exec.CommandContext(ctx, bin, "--stats=record", "-p", walDir, "-s", from, "-e", to).CombinedOutput() //nolint:gosec // the benchmark's own flags
	if err != nil {
		return fmt.Errorf("pg_waldump: %w: %s", err, stats)
	}
	byRel, err := walByRelation(ctx, bin, walDir, from, to)
	if err != nil {
		return err
	}
	names, err := relationNames(ctx, url)
	if err != nil {
		return err
	}
	type row struct {
		rel, kind string
		n, bytes  int64
	}
	var rows []row
	for k, v := range byRel {
		name := names[k.node]
		switch {
		case k.node == "":
			name = "(no relation)"
		case name == "":
			name = "filenode " + k.node
		}
		rows = append(rows, row{name, k.kind, v[0], v[1]})
	}
	slices.SortFunc(rows, func(a, b row) int { return cmp.Compare(b.bytes, a.bytes) })
	var b strings.Builder
	b.Write(stats)
	fmt.Fprintf(&b, "\nBy relation (first block reference of each record):\n%-48s %-24s %10s %12s\n", "relation", "record", "records", "bytes")
	for _, r := range rows {
		fmt.Fprintf(&b, "%-48s %-24s %10d %12d\n", r.rel, r.kind, r.n, r.bytes)
	}
	return os.WriteFile(path, []byte(b.String()), 0o600)
}

type walKey struct{ node, kind string }

var walLine = regexp.MustCompile(`^rmgr: (\S+)\s+len \(rec/tot\):\s*\d+/\s*(\d+),.*desc: (\S+)(?:.*blkref #0: rel \d+/\d+/(\d+))?`)

// walByRelation counts the records and bytes of each relation's record types.
func walByRelation(ctx context.Context, bin, walDir, from, to string) (map[walKey][2]int64, error) {
	cmd := exec.CommandContext(ctx, bin, "-p", walDir, "-s", from, "-e", to) //nolint:gosec // the benchmark's own flags
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	acc := map[walKey][2]int64{}
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		m := walLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		size, _ := strconv.ParseInt(m[2], 10, 64)
		k := walKey{node: m[4], kind: m[1] + "/" + m[3]}
		v := acc[k]
		acc[k] = [2]int64{v[0] + 1, v[1] + size}
	}
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("pg_waldump: %w", err)
	}
	return acc, sc.Err()
}

// relationNames maps the database's relation file nodes to their names (a TOAST
// table's and its index's with the table they belong to).
func relationNames(ctx context.Context, url string) (map[string]string, error) {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return nil, err
	}
	defer func() { _ = conn.Close(ctx) }()
	rows, err := conn.Query(ctx, `SELECT pg_relation_filenode(c.oid)::text, COALESCE(t.relname || ' (toast' || CASE WHEN c.relkind = 'i' THEN ' index' ELSE '' END || ')', c.relname)
		FROM pg_class c LEFT JOIN pg_class t ON t.reltoastrelid = c.oid OR t.reltoastrelid = (SELECT indrelid FROM pg_index WHERE indexrelid = c.oid)
		WHERE pg_relation_filenode(c.oid) IS NOT NULL`)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for rows.Next() {
		var node, name string
		if err := rows.Scan(&node, &name); err != nil {
			return nil, err
		}
		out[node] = name
	}
	return out, rows.Err()
}
