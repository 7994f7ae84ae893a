package app

import (
	"context"
	"math"
	"time"

	"github.com/gocommerce/commerce/modules/notifications/domain"
)

// Counts are the outcome counts of a set of notifications.
type Counts struct {
	Sent, Delivered, Failed, Bounced int64
}

// StatsResult is GET /notifications/stats.
type StatsResult struct {
	Start, End                time.Time
	Overall                   Counts
	DeliveryRate, FailureRate float64
	ByChannel                 map[string]Counts
}

// DefaultStatsWindow is the period without since.
const DefaultStatsWindow = 30 * 24 * time.Hour

// Stats counts the notifications created since (default the last 30 days). "sent"
// counts every notification that left (sent, delivered and bounced ones);
// delivery_rate is delivered / sent and failure_rate (failed + bounced) / (sent +
// failed), as percentages with two decimals.
func (s *Service) Stats(ctx context.Context, channel, customerID string, since *time.Time) (StatsResult, error) {
	end := s.clock.Now()
	start := end.Add(-DefaultStatsWindow)
	if since != nil {
		start = since.UTC()
	}
	raw, err := s.stores.Notifications.Stats(ctx, channel, customerID, start)
	if err != nil {
		return StatsResult{}, err
	}
	out := StatsResult{Start: start, End: end, ByChannel: map[string]Counts{}}
	for _, ch := range domain.Channels {
		if channel != "" && ch != channel {
			continue
		}
		m := raw[ch]
		c := Counts{
			Sent:      m[domain.StatusSent] + m[domain.StatusDelivered] + m[domain.StatusBounced],
			Delivered: m[domain.StatusDelivered], Failed: m[domain.StatusFailed], Bounced: m[domain.StatusBounced],
		}
		out.ByChannel[ch] = c
		out.Overall.Sent += c.Sent
		out.Overall.Delivered += c.Delivered
		out.Overall.Failed += c.Failed
		out.Overall.Bounced += c.Bounced
	}
	o := out.Overall
	out.DeliveryRate = pct(o.Delivered, o.Sent)
	out.FailureRate = pct(o.Failed+o.Bounced, o.Sent+o.Failed)
	return out, nil
}

func pct(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return math.Round(float64(a)*10000/float64(b)) / 100
}
