package domain

import (
	"strconv"
	"strings"
	"time"
)

// TokenRevocation records that every token issued to a customer before now is dead:
// tokens carry the generation they were issued in (Claims.Generation), and one whose
// generation is below the customer's is refused (docs/decisions/0096).
type TokenRevocation struct {
	CustomerID string
	Generation int64 // 1 after the first revocation, +1 for each one after
	RevokedAt  time.Time
}

// Refuses reports whether a token of generation gen is dead under this revocation.
func (r TokenRevocation) Refuses(gen int64) bool { return gen < r.Generation }

// revocationSignalPrefix starts a customer revocation on the channels that carry API
// key invalidations (an API key prefix is alphanumeric, so the two never collide).
const revocationSignalPrefix = "customer:"

// RevocationSignal is the message that tells the other processes about a revocation:
// "customer:<id>:<generation>".
func RevocationSignal(customerID string, generation int64) string {
	return revocationSignalPrefix + customerID + ":" + strconv.FormatInt(generation, 10)
}

// ParseRevocationSignal reads a RevocationSignal; ok is false for anything else (such
// as an API key prefix).
func ParseRevocationSignal(msg string) (customerID string, generation int64, ok bool) {
	rest, found := strings.CutPrefix(msg, revocationSignalPrefix)
	if !found {
		return "", 0, false
	}
	i := strings.LastIndexByte(rest, ':')
	if i <= 0 {
		return "", 0, false
	}
	gen, err := strconv.ParseInt(rest[i+1:], 10, 64)
	if err != nil || gen <= 0 {
		return "", 0, false
	}
	return rest[:i], gen, true
}
