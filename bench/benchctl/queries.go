package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"
)

// pgStats counts the frontend messages clients send through the proxy.
type pgStats struct {
	mu sync.Mutex
	// Messages by type: Q simple query, P parse, B bind, E execute, S sync.
	Messages map[string]int64 `json:"messages"`
	// Statements counts executions by SQL text (simple queries and binds).
	Statements map[string]int64 `json:"statements"`
	// Parses counts Parse messages by SQL text (statement preparation).
	Parses map[string]int64 `json:"parses"`
}

func newPGStats() *pgStats {
	return &pgStats{Messages: map[string]int64{}, Statements: map[string]int64{}, Parses: map[string]int64{}}
}

var spaces = regexp.MustCompile(`\s+`)

func normSQL(s string) string {
	s = strings.TrimSpace(spaces.ReplaceAllString(s, " "))
	if len(s) > 400 {
		s = s[:400] + "..."
	}
	return s
}

func (s *pgStats) add(msg byte, sql string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Messages[string(msg)]++
	switch msg {
	case 'Q', 'B':
		s.Statements[normSQL(sql)]++
	case 'P':
		s.Parses[normSQL(sql)]++
	}
}

func (s *pgStats) reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Messages, s.Statements, s.Parses = map[string]int64{}, map[string]int64{}, map[string]int64{}
}

// cmdPGProxy forwards PostgreSQL connections to upstream, counting the frontend messages
// (statements executed, round trips, preparations) per SQL text. GET /counts on the
// admin address returns the counts, POST /reset clears them.
func cmdPGProxy(args []string) error {
	fs := flag.NewFlagSet("pgproxy", flag.ExitOnError)
	listen := fs.String("listen", "127.0.0.1:54329", "listen address")
	upstream := fs.String("upstream", "127.0.0.1:5432", "PostgreSQL address")
	admin := fs.String("admin", "127.0.0.1:54330", "counts HTTP address")
	if err := fs.Parse(args); err != nil {
		return err
	}
	st := newPGStats()
	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", *listen)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /counts", func(w http.ResponseWriter, _ *http.Request) {
		st.mu.Lock()
		defer st.mu.Unlock()
		_ = json.NewEncoder(w).Encode(st)
	})
	mux.HandleFunc("POST /reset", func(w http.ResponseWriter, _ *http.Request) {
		st.reset()
		w.WriteHeader(http.StatusNoContent)
	})
	go func() {
		srv := &http.Server{Addr: *admin, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
		if err := srv.ListenAndServe(); err != nil {
			fmt.Fprintln(os.Stderr, "pgproxy admin:", err)
			os.Exit(1)
		}
	}()
	for {
		c, err := ln.Accept()
		if err != nil {
			return err
		}
		go func() {
			defer c.Close()
			u, err := (&net.Dialer{}).DialContext(context.Background(), "tcp", *upstream)
			if err != nil {
				return
			}
			defer u.Close()
			go func() { _, _ = io.Copy(c, u); _ = c.Close() }()
			_ = forwardFrontend(c, u, st)
		}()
	}
}

// forwardFrontend copies the client's messages to the server, counting them.
func forwardFrontend(client io.Reader, server io.Writer, st *pgStats) error {
	br := bufio.NewReaderSize(client, 64<<10)
	var hdr [5]byte
	// Untyped startup packets: SSL/GSS requests, then the startup message.
	for {
		if _, err := io.ReadFull(br, hdr[:4]); err != nil {
			return err
		}
		n := int(binary.BigEndian.Uint32(hdr[:4]))
		if n < 8 {
			return errors.New("bad startup packet")
		}
		payload := make([]byte, n-4)
		if _, err := io.ReadFull(br, payload); err != nil {
			return err
		}
		if _, err := server.Write(append(hdr[:4:4], payload...)); err != nil {
			return err
		}
		code := binary.BigEndian.Uint32(payload[:4])
		if code == 80877103 || code == 80877104 { // SSLRequest, GSSENCRequest
			continue
		}
		break
	}
	names := map[string]string{}
	for {
		if _, err := io.ReadFull(br, hdr[:5]); err != nil {
			return err
		}
		n := int(binary.BigEndian.Uint32(hdr[1:5]))
		if n < 4 {
			return errors.New("bad message")
		}
		payload := make([]byte, n-4)
		if _, err := io.ReadFull(br, payload); err != nil {
			return err
		}
		switch t := hdr[0]; t {
		case 'Q':
			st.add(t, cstring(payload, 0))
		case 'P':
			name := cstring(payload, 0)
			sql := cstring(payload, len(name)+1)
			names[name] = sql
			st.add(t, sql)
		case 'B':
			portal := cstring(payload, 0)
			stmt := cstring(payload, len(portal)+1)
			st.add(t, names[stmt])
		default:
			st.add(t, "")
		}
		if _, err := server.Write(append(hdr[:5:5], payload...)); err != nil {
			return err
		}
		if hdr[0] == 'X' {
			return nil
		}
	}
}

func cstring(b []byte, from int) string {
	if from >= len(b) {
		return ""
	}
	i := from
	for i < len(b) && b[i] != 0 {
		i++
	}
	return string(b[from:i])
}

// queryResult is one scenario's statement counts per HTTP request.
type queryResult struct {
	Key        string  `json:"key"`
	Title      string  `json:"title"`
	Status     string  `json:"status"`
	Requests   int     `json:"requests"`
	Statements float64 `json:"statements_per_request"`
	RoundTrips float64 `json:"round_trips_per_request"`
	Parses     float64 `json:"parses_per_request"`
	// Top lists the statements sent, with their count per request, most frequent first.
	Top []stmtCount `json:"top"`
}

type stmtCount struct {
	SQL        string  `json:"sql"`
	PerRequest float64 `json:"per_request"`
}

type queriesFile struct {
	// BackgroundPerSecond is the statements per second the idle server sends (relay,
	// API-key re-checks), measured before the scenarios.
	BackgroundPerSecond float64       `json:"background_per_second"`
	Background          []stmtCount   `json:"background"`
	Results             []queryResult `json:"results"`
	// Request is the same measured on a server that leaves its events to another
	// process (report only; not in the file).
	Request []queryResult `json:"-"`
}

func fetchCounts(admin string) (*pgStats, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+admin+"/counts", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	st := newPGStats()
	return st, json.NewDecoder(resp.Body).Decode(st)
}

func resetCounts(admin string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+admin+"/reset", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func topStatements(m map[string]int64, per float64) []stmtCount {
	var out []stmtCount
	for sql, n := range m {
		out = append(out, stmtCount{SQL: sql, PerRequest: float64(n) / per})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].PerRequest != out[j].PerRequest {
			return out[i].PerRequest > out[j].PerRequest
		}
		return out[i].SQL < out[j].SQL
	})
	return out
}

// cmdQueries runs each server scenario sequentially (one connection) against a server
// whose database connection goes through pgproxy, and writes the statements, round
// trips and preparations per HTTP request.
func cmdQueries(args []string) error {
	fs := flag.NewFlagSet("queries", flag.ExitOnError)
	server := fs.String("server", "127.0.0.1:8081", "commerce host:port (connected through pgproxy)")
	admin := fs.String("proxy-admin", "127.0.0.1:54330", "pgproxy counts address")
	key, catalogPath, statePath := seedFlags(fs)
	iterations := fs.Int("iterations", 200, "measured iterations per scenario")
	warm := fs.Int("warmup", 20, "iterations before counting")
	only := fs.String("only", "", "comma-separated scenario keys")
	out := fs.String("out", "queries.json", "output file")
	settleURL := fs.String("settle-url", "", "database URL: after a scenario's pool is prepared, wait for the relay to deliver its events and vacuum, before counting")
	if err := fs.Parse(args); err != nil {
		return err
	}
	e, err := loadEnv(*server, "", *key, *catalogPath, *statePath)
	if err != nil {
		return err
	}
	qf := queriesFile{}
	// Background: what the idle server sends.
	if err := resetCounts(*admin); err != nil {
		return err
	}
	const idle = 3 * time.Second
	time.Sleep(idle)
	bg, err := fetchCounts(*admin)
	if err != nil {
		return err
	}
	qf.BackgroundPerSecond = float64(bg.Messages["B"]+bg.Messages["Q"]) / idle.Seconds()
	qf.Background = topStatements(bg.Statements, idle.Seconds())

	for _, s := range scenarios() {
		if s.reference || !selected(*only, s) {
			continue
		}
		var counts *pgStats
		var countErr error
		o := runOptions{
			concurrency: 1, iterations: *iterations, warmIterations: *warm,
			atStart: func() { countErr = resetCounts(*admin) },
			atEnd: func() {
				if countErr == nil {
					counts, countErr = fetchCounts(*admin)
				}
			},
		}
		if *settleURL != "" {
			o.settle = func() error { return settle(*settleURL, s.key, "its prepared pool") }
		}
		r := runScenario(e, s, o)
		q := queryResult{Key: s.key, Title: s.title, Status: r.Status, Requests: r.Requests + r.Errors}
		if countErr != nil {
			q.Status = "failed: " + countErr.Error()
		}
		if r.Status == "ok" && counts != nil && q.Requests > 0 {
			n := float64(q.Requests)
			q.Statements = float64(counts.Messages["B"]+counts.Messages["Q"]) / n
			q.RoundTrips = float64(counts.Messages["S"]+counts.Messages["Q"]) / n
			q.Parses = float64(counts.Messages["P"]) / n
			q.Top = topStatements(counts.Statements, n)
		}
		fmt.Fprintf(os.Stderr, "%-46s %s: %.1f statements, %.1f round trips, %.2f parses per request\n",
			s.title, q.Status, q.Statements, q.RoundTrips, q.Parses)
		qf.Results = append(qf.Results, q)
	}
	return writeJSON(*out, qf)
}

// seedFlags declares the admin key and the seed outputs a measuring command reads.
func seedFlags(fs *flag.FlagSet) (key, catalogPath, statePath *string) {
	key = fs.String("key", "", "admin API key")
	catalogPath = fs.String("catalog", "catalog.json", "seed-catalog output")
	statePath = fs.String("state", "state.json", "seed-http output")
	return key, catalogPath, statePath
}
