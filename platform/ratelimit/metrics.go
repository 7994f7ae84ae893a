package ratelimit

import (
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gocommerce/commerce/platform/metrics"
)

// instruments are the limiter's Prometheus metrics.
type instruments struct {
	hits     *prometheus.CounterVec
	rejected *prometheus.CounterVec
	// fallback is 1 while the shared store fails and this process limits in memory.
	fallback prometheus.Gauge
	// fallbackDecisions counts the requests decided in memory during outages.
	fallbackDecisions prometheus.Counter
}

// currentRate is the commerce_rate_limit_current_rate gauge, computed at scrape time
// from the tracker, so only clients active in the last minute are exported.
type currentRate struct {
	desc    *prometheus.Desc
	tracker *tracker
	now     func() time.Time
}

// Describe implements prometheus.Collector.
func (r *currentRate) Describe(ch chan<- *prometheus.Desc) { ch <- r.desc }

// Collect implements prometheus.Collector.
func (r *currentRate) Collect(ch chan<- prometheus.Metric) {
	for _, u := range r.tracker.snapshot(r.now()) {
		ch <- prometheus.MustNewConstMetric(r.desc, prometheus.GaugeValue, float64(u.RequestsLastMinute), u.ClientID)
	}
}

// newInstruments builds the metrics and registers them on reg (when not nil).
func newInstruments(reg *metrics.Registry, t *tracker, now func() time.Time) (*instruments, error) {
	in := &instruments{
		hits: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "commerce_rate_limit_hits_total",
			Help: "Requests seen by the rate limiter, by client type (anonymous or authenticated).",
		}, []string{"client_type"}),
		rejected: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "commerce_rate_limit_rejected_total",
			Help: "Requests refused with 429 by the rate limiter, by client type (anonymous or authenticated).",
		}, []string{"client_type"}),
		fallback: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "commerce_rate_limit_fallback",
			Help: "1 while the shared rate-limit store (Redis) is unavailable and this process limits on its own, in memory; 0 otherwise.",
		}),
		fallbackDecisions: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "commerce_rate_limit_fallback_decisions_total",
			Help: "Requests admitted or refused by this process's in-memory limits while the shared rate-limit store was unavailable.",
		}),
	}
	for _, typ := range []string{TypeAnonymous, TypeAuthenticated} {
		in.hits.WithLabelValues(typ)
		in.rejected.WithLabelValues(typ)
	}
	rate := &currentRate{
		desc: prometheus.NewDesc("commerce_rate_limit_current_rate",
			"Requests in the last minute per client seen by this process (clients active in the last minute only).",
			[]string{"client_id"}, nil),
		tracker: t,
		now:     now,
	}
	if reg == nil || reg.Registry == nil {
		return in, nil
	}
	for _, c := range []prometheus.Collector{in.hits, in.rejected, in.fallback, in.fallbackDecisions, rate} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("ratelimit: register metrics: %w", err)
		}
	}
	return in, nil
}

func clientType(authenticated bool) string {
	if authenticated {
		return TypeAuthenticated
	}
	return TypeAnonymous
}

func (in *instruments) seen(authenticated bool) {
	in.hits.WithLabelValues(clientType(authenticated)).Inc()
}

func (in *instruments) reject(authenticated bool) {
	in.rejected.WithLabelValues(clientType(authenticated)).Inc()
}
