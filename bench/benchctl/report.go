package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// target is an issue 8 target, checked on one scenario.
type target struct {
	text  string
	check func(r result, ratio float64) bool
}

var targets = map[string]target{
	"get":  {"≥ 60% of ref, p99 < 15 ms", func(r result, ratio float64) bool { return ratio >= 0.60 && r.P99 < 15 }},
	"list": {"≥ 50% of ref", func(_ result, ratio float64) bool { return ratio >= 0.50 }},
	"add":  {"≥ 2,000 req/s, p99 < 50 ms", func(r result, _ float64) bool { return r.RPS >= 2000 && r.P99 < 50 }},
	// Issue 20: also fewer than 30 SQL statements per complete (the stmts/req column).
	"checkout": {"p99 < 100 ms", func(r result, _ float64) bool { return r.RPS > 0 && r.P99 < 100 }},
}

const (
	loadedRSSLimitKB = 150 * 1024
	idleRSSLimitKB   = 60 * 1024
)

type reportMeta struct {
	commit, postgres, redis, date string
	idleRSS, startRSS, refIdle    int64
	idleAnon, idleFile            int64
	seedCatalog, seedHTTP         float64
	products, variants, customers int
	outboxBacklog                 int64
	outboxDrain                   string
}

func cmdReport(args []string) error {
	fs := flag.NewFlagSet("report", flag.ExitOnError)
	resultsPath := fs.String("results", "results.json", "run output")
	queriesPath := fs.String("queries", "", "queries output (optional)")
	requestPath := fs.String("queries-request", "", "queries output of a server whose events another process delivers (optional)")
	out := fs.String("out", "bench/results/latest.md", "markdown file to write")
	var m reportMeta
	fs.StringVar(&m.commit, "commit", "", "git commit")
	fs.StringVar(&m.postgres, "postgres", "", "PostgreSQL version")
	fs.StringVar(&m.redis, "redis", "", "Redis version")
	fs.Int64Var(&m.idleRSS, "idle-rss-kb", 0, "server VmRSS after seeding and a pause")
	fs.Int64Var(&m.idleAnon, "idle-rss-anon-kb", 0, "server RssAnon after seeding and a pause")
	fs.Int64Var(&m.idleFile, "idle-rss-file-kb", 0, "server RssFile after seeding and a pause")
	fs.Int64Var(&m.startRSS, "start-rss-kb", 0, "server VmRSS right after start")
	fs.Int64Var(&m.refIdle, "ref-idle-rss-kb", 0, "reference VmRSS before the load")
	fs.Float64Var(&m.seedCatalog, "seed-catalog-s", 0, "catalog seeding seconds")
	fs.Float64Var(&m.seedHTTP, "seed-http-s", 0, "HTTP seeding seconds")
	fs.IntVar(&m.products, "products", 0, "seeded products")
	fs.IntVar(&m.variants, "variants", 0, "variants per product")
	fs.IntVar(&m.customers, "customers", 0, "seeded customers")
	fs.Int64Var(&m.outboxBacklog, "outbox-backlog", 0, "pending outbox events when the load stopped")
	fs.StringVar(&m.outboxDrain, "outbox-drain-s", "", "seconds a fresh server took to drain them (-1: not in time)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	m.date = time.Now().UTC().Format(time.RFC3339)
	var rf runFile
	if err := readJSON(*resultsPath, &rf); err != nil {
		return err
	}
	var qf *queriesFile
	if *queriesPath != "" {
		qf = &queriesFile{}
		if err := readJSON(*queriesPath, qf); err != nil {
			qf = nil
		}
	}
	if qf != nil && *requestPath != "" {
		var rq queriesFile
		if err := readJSON(*requestPath, &rq); err == nil {
			qf.Request = rq.Results
		}
	}
	md := renderReport(rf, qf, m)
	fmt.Print(md)
	if *out != "" {
		return os.WriteFile(*out, []byte(md), 0o644) //nolint:gosec // a results file meant to be read and committed
	}
	return nil
}

func machine() string {
	model := "unknown CPU"
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
		_ = f.Close()
	}
	mem := ""
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "MemTotal:"); ok {
				kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
				mem = fmt.Sprintf("%.1f GiB RAM", kb/1024/1024)
			}
		}
	}
	kernel, _ := os.ReadFile("/proc/sys/kernel/osrelease")
	return fmt.Sprintf("%d CPUs (nproc), %s, %s, Linux %s", runtime.NumCPU(), model, mem, strings.TrimSpace(string(kernel)))
}

func mb(kb int64) string {
	if kb <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f MB", float64(kb)/1024)
}

func passFail(ok bool) string {
	if ok {
		return "PASS"
	}
	return "**FAIL**"
}

func thousands(f float64) string {
	s := strconv.FormatInt(int64(f+0.5), 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func renderReport(rf runFile, qf *queriesFile, m reportMeta) string {
	byKey := map[string]result{}
	for _, r := range rf.Results {
		byKey[r.Key] = r
	}
	stmts := map[string]queryResult{}
	if qf != nil {
		for _, q := range qf.Results {
			stmts[q.Key] = q
		}
	}
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	p("# Benchmark results (`make bench`)\n\n")
	p("- Date: %s\n", m.date)
	p("- Commit: %s\n", orDefault(m.commit, "unknown"))
	p("- Machine: %s\n", machine())
	p("- Versions: %s, PostgreSQL %s, Redis %s\n", runtime.Version(), orDefault(m.postgres, "?"), orDefault(m.redis, "?"))
	p("- Data: %d products × %d variants (catalog seeding %.1f s), %d customers with their carts (HTTP seeding %.1f s)\n",
		m.products, m.variants, m.seedCatalog, m.customers, m.seedHTTP)
	p("- Load: %d connections (one goroutine each, keep-alive), %s warm-up then %s measured per scenario, a scenario that follows one that writes after a VACUUM (ANALYZE) of the database (as pgbench does before a run); server, reference, PostgreSQL, Redis and load generator share the machine\n\n",
		rf.Concurrency, rf.Warmup, rf.Duration)

	p("| Scenario | req/s | p50 ms | p99 ms | vs reference | SQL stmts/req | server CPU µs/req | Target | Result |\n")
	p("|---|---:|---:|---:|---:|---:|---:|---|---|\n")
	for _, r := range rf.Results {
		if r.Status != "ok" && !strings.HasPrefix(r.Status, "failed") {
			p("| %s | %s | | | | | | %s | |\n", r.Title, r.Status, targetText(r.Key))
			continue
		}
		ratio, ratioText := 0.0, ""
		switch {
		case r.Reference:
			ratioText = "1.00"
		case r.Ref != "":
			if ref, ok := byKey[r.Ref]; ok && ref.RPS > 0 {
				ratio = r.RPS / ref.RPS
				ratioText = fmt.Sprintf("%.2f (%s)", ratio, r.Ref)
			}
		}
		sql := ""
		if r.Reference {
			sql = "1"
		} else if q, ok := stmts[r.Key]; ok && q.Status == "ok" {
			sql = fmt.Sprintf("%.1f", q.Statements)
		}
		res := ""
		if t, ok := targets[r.Key]; ok {
			res = passFail(r.Status == "ok" && t.check(r, ratio))
		}
		title := r.Title
		if r.Status != "ok" {
			title += " (" + r.Status + ")"
		}
		p("| %s | %s | %.2f | %.2f | %s | %s | %.0f | %s | %s |\n", title, thousands(r.RPS), r.P50, r.P99, ratioText, sql, r.ServerCPU, targetText(r.Key), res)
	}
	p("| server RSS under load (peak VmHWM) | | | | | | | < 150 MB | %s: %s |\n", passFail(rf.PeakRSSkB > 0 && rf.PeakRSSkB < loadedRSSLimitKB), mb(rf.PeakRSSkB))
	p("| server RSS idle (after seeding and a pause) | | | | | | | < 60 MB | %s: %s |\n", passFail(m.idleRSS > 0 && m.idleRSS < idleRSSLimitKB), mb(m.idleRSS))

	p("\nRSS: server at start %s, idle after seeding %s (anonymous %s + file-backed %s: the mapped binary), peak under load %s; reference idle %s, peak %s.\n",
		mb(m.startRSS), mb(m.idleRSS), mb(m.idleAnon), mb(m.idleFile), mb(rf.PeakRSSkB), mb(m.refIdle), mb(rf.ReferencePeakRSSkB))
	switch {
	case m.outboxDrain == "":
		p("Outbox: %d events not yet delivered when the load stopped.\n", m.outboxBacklog)
	case strings.HasPrefix(m.outboxDrain, "-"):
		p("Outbox: %d events not yet delivered when the load stopped; not drained within 3 minutes.\n", m.outboxBacklog)
	default:
		p("Outbox: %d events not yet delivered when the load stopped; drained in %s s (before the SQL count below).\n", m.outboxBacklog, m.outboxDrain)
	}
	p("\"vs reference\" divides requests/s by the named reference scenario's (`ref-get`: one SELECT by id; `ref-list`: one page of 20). Cart scenarios are compared with `ref-get`.\n")

	p("\n## Where the CPU goes (per successful request, over the measured window)\n\n")
	p("WAL: what PostgreSQL's whole cluster wrote to its write-ahead log during the window, per request (`pg_stat_wal`): the rows, index entries and commits of the request and of the reactions that ran meanwhile; it does not depend on the host's speed.\n\n")
	p("| Scenario | requests | errors | p90 ms | max ms | server µs | PostgreSQL µs | Redis µs | load generator µs | machine busy | peak RSS in scenario | WAL bytes (records) |\n")
	p("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range rf.Results {
		if r.Requests == 0 {
			continue
		}
		wal := "–"
		if r.WALRecords > 0 {
			wal = fmt.Sprintf("%s (%.1f)", thousands(r.WALBytes), r.WALRecords)
		}
		p("| %s | %s | %d | %.2f | %.1f | %.0f | %.0f | %.0f | %.0f | %.0f%% | %s | %s |\n", r.Title, thousands(float64(r.Requests)), r.Errors,
			r.P90, r.Max, r.ServerCPU, r.PostgresCPU, r.RedisCPU, r.LoadgenCPU, r.MachineBusy, mb(r.MaxRSSkB), wal)
	}
	for _, r := range rf.Results {
		if len(r.ErrorSamples) > 0 {
			p("\nErrors in \"%s\" (first %d):\n\n", r.Title, len(r.ErrorSamples))
			for _, e := range r.ErrorSamples {
				p("    %s\n", e)
			}
		}
	}

	if qf != nil {
		p("\n## SQL per request (one connection, counted by a PostgreSQL protocol proxy)\n\n")
		p("Idle server: %.1f statements/s in the background.\n\n", qf.BackgroundPerSecond)
		p("| Scenario | statements | round trips | prepares | statements sent (per request) |\n|---|---:|---:|---:|---|\n")
		for _, q := range qf.Results {
			if q.Status != "ok" {
				p("| %s | %s | | | |\n", q.Title, q.Status)
				continue
			}
			var parts []string
			for _, s := range q.Top {
				if s.PerRequest < 0.05 {
					continue
				}
				parts = append(parts, fmt.Sprintf("%.2f× `%s`", s.PerRequest, strings.ReplaceAll(shortSQL(s.SQL), "|", "\\|")))
			}
			p("| %s | %.1f | %.1f | %.2f | %s |\n", q.Title, q.Statements, q.RoundTrips, q.Parses, strings.Join(parts, "<br>"))
		}
		for _, q := range qf.Request {
			if q.Key != "checkout" || q.Status != "ok" {
				continue
			}
			p("\nThe counts above include what the server's outbox relay runs meanwhile: the other modules' reactions to the "+
				"request's events. **%s, the request alone** (a server with `jobs.serve_relay: false`, its events left to another "+
				"process): %.1f statements, %.1f round trips per complete (issue 20's target: fewer than 30): %s.\n",
				q.Title, q.Statements, q.RoundTrips, passFail(q.Statements < 30))
		}
	}
	return b.String()
}

func targetText(key string) string {
	if t, ok := targets[key]; ok {
		return t.text
	}
	return ""
}

// shortSQL keeps a statement's verb and table: enough to recognise it in the table.
func shortSQL(s string) string {
	if len(s) <= 90 {
		return s
	}
	return s[:90] + "…"
}
