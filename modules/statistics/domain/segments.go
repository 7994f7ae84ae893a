package domain

import "github.com/gocommerce/commerce/modules/statistics/api"

// Segments lists the segments (their names are api's, Part 2 "Customer segment
// meanings"; docs/decisions/0213) in the order responses give them.
var Segments = []string{api.SegmentVIP, api.SegmentLoyal, api.SegmentNew, api.SegmentAtRisk, api.SegmentDormant}

// Segment rules: vip is the top VIPPercent of customers with orders by lifetime value
// (at least one customer when any has orders); the others go by the days since the
// last order and the number of orders, and exclude each other in this order: dormant
// (DormantDays or more), at_risk (AtRiskDays or more), new (first order within NewDays),
// loyal (LoyalOrders or more orders).
const (
	VIPPercent  = 5
	NewDays     = 30
	AtRiskDays  = 60
	DormantDays = 90
	LoyalOrders = 3
)

// IsSegment reports whether name is a computed segment.
func IsSegment(name string) bool {
	for _, s := range Segments {
		if s == name {
			return true
		}
	}
	return false
}

// VIPCount is how many customers of n with orders are vip: 5 percent, rounded up.
func VIPCount(n int64) int64 { return (n*VIPPercent + 99) / 100 }
