package domain

import (
	"time"

	"github.com/gocommerce/commerce/platform/signature"
)

// Sign answers the X-Commerce-Signature value of body at t (CONTRACT §5; platform/signature).
func Sign(secret string, t time.Time, body []byte) string { return signature.Sign(secret, t, body) }

// VerifySignature checks a Sign header against body: the secret must be set and the
// time within tolerance of now.
func VerifySignature(secret, header string, body []byte, now time.Time, tolerance time.Duration) bool {
	return signature.Verify(secret, header, body, now, tolerance)
}
