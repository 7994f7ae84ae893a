package statisticsapi_test

import (
	"context"
	"testing"

	"github.com/gocommerce/commerce/modules/customers/adapters/statisticsapi"
)

type own map[string]bool

func (o own) InSegment(_ context.Context, segmentID, customerID string) (bool, error) {
	return o[segmentID+"/"+customerID], nil
}

type computed map[string]bool

func (c computed) IsSegment(name string) bool { return name == "vip" || name == "dormant" }

func (c computed) InSegment(_ context.Context, segment, customerID string) (bool, error) {
	return c[segment+"/"+customerID], nil
}

// TestSegmentsByName: a computed segment's name asks statistics, an id the
// hand-made segments.
func TestSegmentsByName(t *testing.T) {
	s := statisticsapi.NewSegments(own{"0190a000-0000-7000-8000-000000000001/c1": true}, computed{"vip/c1": true, "vip/own": true})
	for _, tc := range []struct {
		segment, customer string
		want              bool
	}{
		{"vip", "c1", true},
		{"vip", "c2", false},
		{"dormant", "c1", false},
		{"0190a000-0000-7000-8000-000000000001", "c1", true},
		{"0190a000-0000-7000-8000-000000000001", "c2", false},
	} {
		got, err := s.InSegment(t.Context(), tc.segment, tc.customer)
		if err != nil || got != tc.want {
			t.Errorf("InSegment(%s, %s) = %v, %v; want %v", tc.segment, tc.customer, got, err, tc.want)
		}
	}
}
