package events

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// backlogTimeout bounds the statements of one scrape: a database that does not answer
// leaves the backlog metrics out of that scrape instead of holding /metrics.
const backlogTimeout = time.Second

// Backlog is the outbox's state: events not yet delivered to every consumer and still
// being retried, events given up after MaxAttempts, and the age of the oldest of the
// first (0 when there is none).
type Backlog struct {
	Pending int64
	Failed  int64
	Oldest  time.Duration
}

// Backlog reads the outbox's backlog (two statements on indexed columns).
func (r *Relay) Backlog(ctx context.Context) (Backlog, error) {
	var b Backlog
	conn := r.db.Conn(ctx)
	var counts struct{ Pending, Failed int64 }
	err := conn.Raw(`SELECT COALESCE(SUM(CASE WHEN attempts < ? THEN 1 ELSE 0 END), 0) AS pending,
  COALESCE(SUM(CASE WHEN attempts >= ? THEN 1 ELSE 0 END), 0) AS failed
FROM outbox_events WHERE published_at IS NULL`, r.MaxAttempts, r.MaxAttempts).Scan(&counts).Error
	if err != nil {
		return b, err
	}
	b.Pending, b.Failed = counts.Pending, counts.Failed
	var oldest []outboxRow
	err = r.db.Conn(ctx).Select("id", "occurred_at").Where("published_at IS NULL AND attempts < ?", r.MaxAttempts).
		Order("occurred_at").Limit(1).Find(&oldest).Error
	if err != nil {
		return b, err
	}
	if len(oldest) == 1 {
		b.Oldest = max(r.Clock.Now().Sub(oldest[0].OccurredAt), 0)
	}
	return b, nil
}

// backlogCollector exports Backlog at each scrape.
type backlogCollector struct {
	r                     *Relay
	pending, failed, aged *prometheus.Desc
}

// Collector exports the outbox backlog to Prometheus, read at each scrape:
// commerce_outbox_pending_events, commerce_outbox_failed_events and
// commerce_outbox_oldest_pending_age_seconds. They count the whole outbox (every
// process's events), so every process reports the same figures.
func (r *Relay) Collector() prometheus.Collector {
	return &backlogCollector{r: r,
		pending: prometheus.NewDesc("commerce_outbox_pending_events", "Outbox events not yet delivered to every consumer, still retried.", nil, nil),
		failed:  prometheus.NewDesc("commerce_outbox_failed_events", "Outbox events given up after the relay's maximum attempts.", nil, nil),
		aged:    prometheus.NewDesc("commerce_outbox_oldest_pending_age_seconds", "Age of the oldest pending outbox event (0 when none).", nil, nil),
	}
}

// Describe implements prometheus.Collector.
func (c *backlogCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.pending
	ch <- c.failed
	ch <- c.aged
}

// Collect implements prometheus.Collector; a failed read exports nothing.
func (c *backlogCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), backlogTimeout)
	defer cancel()
	b, err := c.r.Backlog(ctx)
	if err != nil {
		return
	}
	ch <- prometheus.MustNewConstMetric(c.pending, prometheus.GaugeValue, float64(b.Pending))
	ch <- prometheus.MustNewConstMetric(c.failed, prometheus.GaugeValue, float64(b.Failed))
	ch <- prometheus.MustNewConstMetric(c.aged, prometheus.GaugeValue, b.Oldest.Seconds())
}
