package signedtime_test

import (
	"testing"
	"time"

	"github.com/gocommerce/commerce/modules/payments/adapters/internal/signedtime"
)

func TestCheckIsSymmetric(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	for offset, ok := range map[time.Duration]bool{
		0: true, signedtime.Tolerance: true, -signedtime.Tolerance: true,
		signedtime.Tolerance + time.Second: false, -signedtime.Tolerance - time.Second: false,
		100 * 365 * 24 * time.Hour: false, -100 * 365 * 24 * time.Hour: false,
	} {
		if err := signedtime.Check(now, now.Add(offset)); (err == nil) != ok {
			t.Errorf("offset %s: %v", offset, err)
		}
	}
}

func TestStripeTimestamp(t *testing.T) {
	for header, want := range map[string]int64{
		"t=1495999758,v1=abc,v0=def":    1495999758,
		"v1=abc,t=1,t=1495999758":       1495999758, // the last t= wins, as in stripe-go
		"t=-1,v1=abc":                   -1,
		"x=1,t=1764072000,v1=abc,extra": 1764072000,
	} {
		if got, err := signedtime.StripeTimestamp(header); err != nil || got.Unix() != want {
			t.Errorf("%q: %v %v", header, got, err)
		}
	}
	for _, header := range []string{"", "v1=abc", "t=soon,v1=abc"} {
		if _, err := signedtime.StripeTimestamp(header); err == nil {
			t.Errorf("%q: no error", header)
		}
	}
}
