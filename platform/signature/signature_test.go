package signature_test

import (
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/signature"
)

// The vector: printf '1767225600.{"id":"evt_1"}' | openssl dgst -sha256 -hmac whsec_test
func TestSignAndVerify(t *testing.T) {
	at := time.Unix(1767225600, 0)
	body := []byte(`{"id":"evt_1"}`)
	got := signature.Sign("whsec_test", at, body)
	if want := "t=1767225600,v1=45b40331de0325606dc5400202ade162460fbe48daf9401adfdcd0d7b4f35470"; got != want {
		t.Fatalf("Sign = %q, want %q", got, want)
	}
	for _, tc := range []struct {
		name           string
		secret, header string
		body           []byte
		now            time.Time
		ok             bool
	}{
		{"good", "whsec_test", got, body, at.Add(time.Minute), true},
		{"other secret", "whsec_other", got, body, at, false},
		{"changed body", "whsec_test", got, []byte(`{"id":"evt_2"}`), at, false},
		{"too old", "whsec_test", got, body, at.Add(6 * time.Minute), false},
		{"from the future", "whsec_test", got, body, at.Add(-6 * time.Minute), false},
		{"no secret", "", got, body, at, false},
		{"no header", "whsec_test", "", body, at, false},
		{"garbage", "whsec_test", "t=x,v1=y", body, at, false},
	} {
		if ok := signature.Verify(tc.secret, tc.header, tc.body, tc.now, 5*time.Minute); ok != tc.ok {
			t.Errorf("%s: Verify = %v, want %v", tc.name, ok, tc.ok)
		}
	}
}
