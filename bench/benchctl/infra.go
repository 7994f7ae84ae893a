package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"regexp"
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
