// Package statisticsapi makes the segments the statistics module computes (vip,
// loyal, new, at_risk, dormant) answer through customers' api.Segments, next to the
// segments made by hand (ids), so coupons' customer_segments may name either.
package statisticsapi

import (
	"context"

	"github.com/gocommerce/commerce/modules/customers/api"
	statistics "github.com/gocommerce/commerce/modules/statistics/api"
)

// Segments answers a computed segment's name from statistics, anything else from the
// hand-made segments.
type Segments struct {
	own      api.Segments
	computed statistics.Segments
}

// NewSegments builds the api.Segments of the module.
func NewSegments(own api.Segments, computed statistics.Segments) *Segments {
	return &Segments{own: own, computed: computed}
}

var _ api.Segments = (*Segments)(nil)

// InSegment implements api.Segments.
func (s *Segments) InSegment(ctx context.Context, segmentID, customerID string) (bool, error) {
	if s.computed.IsSegment(segmentID) {
		return s.computed.InSegment(ctx, segmentID, customerID)
	}
	return s.own.InSegment(ctx, segmentID, customerID)
}
