// Package signedtime holds the one rule every provider webhook follows for the
// timestamp its signature covers: it must be within Tolerance of this server's clock,
// in either direction (docs/decisions/0100). A stale timestamp is a replay; one far in
// the future is a signature made to be replayed later, or a broken clock.
package signedtime

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Tolerance is how far a signed timestamp may be from now, before or after (Stripe's
// and WeChat Pay's documented 5 minutes, used for every gateway).
const Tolerance = 5 * time.Minute

// Check refuses a signed timestamp more than Tolerance before or after now.
func Check(now, signed time.Time) error {
	switch d := now.Sub(signed); {
	case d > Tolerance:
		return fmt.Errorf("signed timestamp %s is more than %s old", signed.UTC().Format(time.RFC3339), Tolerance)
	case d < -Tolerance:
		return fmt.Errorf("signed timestamp %s is more than %s in the future", signed.UTC().Format(time.RFC3339), Tolerance)
	}
	return nil
}

// StripeTimestamp reads the t= element of a Stripe-Signature style header
// ("t=1495999758,v1=..,v1=.."), the way stripe-go reads it (the last t= wins), so the
// time checked is the time whose signature stripe-go verified.
func StripeTimestamp(header string) (time.Time, error) {
	var at time.Time
	found := false
	for _, pair := range strings.Split(header, ",") {
		k, v, ok := strings.Cut(pair, "=")
		if !ok || k != "t" || strings.Contains(v, "=") {
			continue
		}
		sec, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return time.Time{}, fmt.Errorf("bad signature timestamp %q", v)
		}
		at, found = time.Unix(sec, 0), true
	}
	if !found {
		return time.Time{}, fmt.Errorf("the signature header has no timestamp")
	}
	return at, nil
}
