// Package signature is the X-Commerce-Signature scheme (CONTRACT §5) the store signs its
// outbound webhook deliveries and webhook notifications with, and checks inbound
// delivery reports against: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`
// keyed with the receiver's secret. docs/webhooks.md shows how a receiver verifies it.
package signature

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"
)

// Header is the header that carries the signature.
const Header = "X-Commerce-Signature"

// Sign is the header's value for body signed at t.
func Sign(secret string, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	return "t=" + ts + ",v1=" + mac(secret, ts, body)
}

func mac(secret, ts string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(ts + "."))
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// Verify checks a header against body: the secret must be set, the time within
// tolerance of now, and the HMAC equal (compared in constant time).
func Verify(secret, header string, body []byte, now time.Time, tolerance time.Duration) bool {
	if secret == "" || header == "" {
		return false
	}
	var ts, sig string
	for _, part := range strings.Split(header, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			sig = v
		}
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || sig == "" {
		return false
	}
	if age := now.Sub(time.Unix(sec, 0)); age > tolerance || age < -tolerance {
		return false
	}
	return hmac.Equal([]byte(mac(secret, ts, body)), []byte(sig))
}
