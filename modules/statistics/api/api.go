// Package api is what other modules (and cmd) may import from statistics: the
// computed customer segments. No framework imports.
package api

import "context"

// Segment names: vip (top 5 percent by lifetime value), loyal (regular repeat
// buyers), new (first purchase within 30 days), at_risk (no purchase for 60+ days),
// dormant (no purchase for 90+ days). docs/decisions/0213 gives the rules.
const (
	SegmentVIP     = "vip"
	SegmentLoyal   = "loyal"
	SegmentNew     = "new"
	SegmentAtRisk  = "at_risk"
	SegmentDormant = "dormant"
)

// Segments answers membership of the computed segments (kept current by the
// statistics:segments job).
type Segments interface {
	// IsSegment reports whether name is a computed segment.
	IsSegment(name string) bool
	// InSegment reports whether the customer is in the computed segment (false for a
	// name that is none).
	InSegment(ctx context.Context, segment, customerID string) (bool, error)
}
