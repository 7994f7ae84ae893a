package webhooks_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/testdb"
)

// TestDeliveryThroughput measures deliveries per second to local receivers and the
// latency from an event's commit to its arrival, with one dead endpoint (it accepts
// connections and never answers: every attempt runs to the timeout) among four live
// ones. It runs with WEBHOOKS_BENCH=1 (docs/webhooks.md has the last results):
//
//	WEBHOOKS_BENCH=1 [WEBHOOKS_BENCH_RATE=200] go test -run TestDeliveryThroughput -v ./modules/webhooks/
func TestDeliveryThroughput(t *testing.T) {
	if os.Getenv("WEBHOOKS_BENCH") == "" {
		t.Skip("set WEBHOOKS_BENCH=1 to measure")
	}
	const events, live = 1000, 4
	s := fast()
	s.Timeout = time.Second
	h := newHarness(t, testdb.Primary(), s)
	ctx, cancel := context.WithCancel(context.Background())
	relayDone := make(chan struct{})
	go func() { defer close(relayDone); h.relay.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-relayDone })

	// The dead endpoint: a listener that never answers.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	go func() {
		var held []net.Conn
		for {
			c, err := l.Accept()
			if err != nil {
				for _, c := range held {
					_ = c.Close()
				}
				return
			}
			held = append(held, c)
		}
	}()
	h.create("http://"+l.Addr().String()+"/dead", "*")

	var mu sync.Mutex
	var latencies []time.Duration
	var last time.Time
	for range live {
		var rc *receiver
		rc = newReceiver(t, false, func(n int, w http.ResponseWriter, _ *http.Request) {
			now := time.Now()
			var b struct {
				CreatedAt time.Time `json:"created_at"`
			}
			_ = json.Unmarshal(rc.requests()[n-1].Body, &b)
			mu.Lock()
			latencies = append(latencies, now.Sub(b.CreatedAt))
			last = now
			mu.Unlock()
			w.WriteHeader(http.StatusNoContent)
		})
		h.create(rc.srv.URL, "*")
	}

	// WEBHOOKS_BENCH_RATE=n publishes n events a second (steady load) instead of all
	// at once (a burst).
	var pace <-chan time.Time
	if rate, _ := strconv.Atoi(os.Getenv("WEBHOOKS_BENCH_RATE")); rate > 0 {
		tick := time.NewTicker(time.Second / time.Duration(rate))
		defer tick.Stop()
		pace = tick.C
	}
	start := time.Now()
	for i := range events {
		if pace != nil {
			<-pace
		}
		if err := h.outbox.Publish(context.Background(), "order.created", fmt.Sprint("o", i), map[string]any{"id": fmt.Sprint("o", i)}); err != nil {
			t.Fatal(err)
		}
	}
	published := time.Since(start)
	jobsDone := func() bool { mu.Lock(); defer mu.Unlock(); return len(latencies) >= events*live }
	deadline := time.Now().Add(2 * time.Minute)
	for !jobsDone() {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d deliveries", len(latencies), events*live)
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	slices.Sort(latencies)
	p := func(q float64) time.Duration {
		return latencies[int(q*float64(len(latencies)-1))].Round(time.Millisecond)
	}
	total := last.Sub(start)
	t.Logf("%d events published in %v; %d deliveries to %d live endpoints (one dead endpoint timing out) in %v: %.0f deliveries/s; commit→delivery p50 %v, p99 %v, max %v",
		events, published.Round(time.Millisecond), len(latencies), live, total.Round(time.Millisecond), float64(len(latencies))/total.Seconds(), p(0.5), p(0.99), p(1))
}
