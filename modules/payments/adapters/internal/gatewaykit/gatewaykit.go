// Package gatewaykit holds what the provider gateways answer alike: the capture method
// they run, the refund states they report and the saved methods they do not offer.
package gatewaykit

import (
	"bytes"
	"context"
	"crypto/rsa"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gocommerce/commerce/modules/payments/adapters/internal/signedtime"
	"github.com/gocommerce/commerce/modules/payments/domain"
	"github.com/gocommerce/commerce/modules/payments/internal/rsakeys"
	"github.com/gocommerce/commerce/modules/payments/ports"
)

// CaptureMethod is manual when the configuration says so, otherwise automatic.
func CaptureMethod(configured string) string {
	if configured == domain.CaptureManual {
		return domain.CaptureManual
	}
	return domain.CaptureAutomatic
}

// RefundStates names a provider's refund states that are final.
type RefundStates struct {
	Succeeded []string
	Failed    []string
}

// Of maps a provider's refund state: succeeded, failed, or (any other) pending.
func (r RefundStates) Of(state string) domain.RefundStatus {
	switch {
	case slices.Contains(r.Succeeded, state):
		return domain.RefundSucceeded
	case slices.Contains(r.Failed, state):
		return domain.RefundFailed
	default:
		return domain.RefundPending
	}
}

// NoSavedMethods is embedded by a gateway that cannot save payment methods.
type NoSavedMethods struct {
	// Provider is the display name in the refusal.
	Provider string
}

// SaveMethod refuses: the provider cannot save cards.
func (n NoSavedMethods) SaveMethod(context.Context, ports.SaveMethodRequest) (ports.SavedMethodResult, error) {
	return ports.SavedMethodResult{}, domain.ErrInvalidPaymentMethod.WithMessage("%s cannot save cards", n.Provider)
}

// DeleteMethod has nothing to forget.
func (NoSavedMethods) DeleteMethod(context.Context, string, string) error { return nil }

// Wallet is the identity of a redirect wallet gateway (ID, Name and its one method,
// RedirectWallet) that cannot save cards (NoSavedMethods; Provider is the display
// name). A gateway embeds it.
type Wallet struct {
	NoSavedMethods
	GatewayID  string
	Currencies []string
	MaxMinor   int64
}

// ID is the gateway's id, also the method type.
func (w Wallet) ID() string { return w.GatewayID }

// Name is the display name.
func (w Wallet) Name() string { return w.Provider }

// Methods offers the wallet: a redirect to the provider's approval page.
func (w Wallet) Methods() []ports.MethodSpec {
	return RedirectWallet(w.GatewayID, w.Provider, w.Currencies, w.MaxMinor)
}

// RedirectWallet is the one method of a wallet the customer approves on the
// provider's page: from one minor unit to maxMinor, in currencies.
func RedirectWallet(methodType, displayName string, currencies []string, maxMinor int64) []ports.MethodSpec {
	return []ports.MethodSpec{{
		MethodType: methodType, DisplayName: displayName, RequiresRedirect: true, Currencies: currencies, MinMinor: 1, MaxMinor: maxMinor,
	}}
}

// HTTPClient is client, or one with the gateways' 30 s timeout when it is nil.
func HTTPClient(client *http.Client) *http.Client {
	if client == nil {
		return &http.Client{Timeout: 30 * time.Second}
	}
	return client
}

// Answer is a provider's HTTP answer, read in full.
type Answer struct {
	Status int
	Header http.Header
	Body   []byte
}

// Refusal is e, with the answer's JSON body decoded into it (e stays as it is when the
// body is not JSON), for an answer with a status of 300 or more; nil for a success.
func (a Answer) Refusal(e error) error {
	if a.Status < 300 {
		return nil
	}
	_ = json.Unmarshal(a.Body, e)
	return e
}

// Do sends req with client and reads at most limit bytes of the answer. A transport
// failure is wrapped as "what: err" (what names the provider and the call).
func Do(client *http.Client, req *http.Request, limit int64, what string) (Answer, error) {
	resp, err := client.Do(req) //nolint:gosec // req goes to the configured provider's base URL
	if err != nil {
		return Answer{}, fmt.Errorf("%s: %w", what, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, limit))
	return Answer{Status: resp.StatusCode, Header: resp.Header, Body: body}, nil
}

// NewRequest builds a request to a provider's JSON API whose body is in as JSON (raw; in
// nil: no body and raw nil), with headers (name, value pairs) set.
func NewRequest(ctx context.Context, method, url string, in any, headers ...string) (req *http.Request, raw []byte, err error) {
	var body io.Reader = http.NoBody
	if in != nil {
		if raw, err = json.Marshal(in); err != nil {
			return nil, nil, err
		}
		body = bytes.NewReader(raw)
	}
	if req, err = http.NewRequestWithContext(ctx, method, url, body); err != nil {
		return nil, nil, err
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	return req, raw, nil
}

// Decode unmarshals the answer's JSON body into out; nothing to do when out is nil or
// the body is empty.
func (a Answer) Decode(out any) error {
	if out == nil || len(a.Body) == 0 {
		return nil
	}
	return json.Unmarshal(a.Body, out)
}

// Send is Do for a provider whose failed answers carry a JSON error: an answer with a
// status of 300 or more is returned as the Refusal of refused(status).
func Send(client *http.Client, req *http.Request, limit int64, what string, refused func(status int) error) (Answer, error) {
	a, err := Do(client, req, limit, what)
	if err != nil {
		return a, err
	}
	return a, a.Refusal(refused(a.Status))
}

// Signed is a wallet gateway that signs its requests with the merchant's RSA key and
// verifies the provider's answers and notifications with the provider's RSA public key:
// its keys, the clock it stamps and checks times with, and the provider's base URL. A
// gateway embeds it.
type Signed struct {
	Wallet
	Key  *rsa.PrivateKey
	Pub  *rsa.PublicKey
	Now  func() time.Time
	Base string
}

// NewSigned parses the key pair (rsakeys.ParsePair) and builds the wallet's base; now is
// time.Now when nil.
func NewSigned(w Wallet, privatePEM, publicPEM, baseURL string, now func() time.Time) (Signed, error) {
	key, pub, err := rsakeys.ParsePair(privatePEM, publicPEM)
	if err != nil {
		return Signed{}, err
	}
	if now == nil {
		now = time.Now
	}
	return Signed{Wallet: w, Key: key, Pub: pub, Now: now, Base: strings.TrimRight(baseURL, "/")}, nil
}

// Sign is content's SHA256withRSA signature with the merchant's key, in base64.
func (s Signed) Sign(content string) (string, error) { return rsakeys.Sign(s.Key, content) }

// Verify checks sig, the provider's base64 SHA256withRSA signature of content.
func (s Signed) Verify(content, sig string) error { return rsakeys.Verify(s.Pub, content, sig) }

// Fresh refuses a signed time more than signedtime.Tolerance before or after now.
func (s Signed) Fresh(signed time.Time) error { return signedtime.Check(s.Now(), signed) }

// Subject refuses a charge that does not pay in the wallet (a card, a saved method or a
// bank transfer: refusal says which payment_method type to send) and answers what the
// provider shows the customer: the charge's description, else "Order <payment id>".
func (w Wallet) Subject(req ports.ChargeRequest, refusal string) (string, error) {
	if req.Card != nil || req.Saved != nil || req.BankTransfer != nil {
		return "", domain.ErrInvalidPaymentMethod.WithMessage("%s", refusal)
	}
	if req.Description == "" {
		return "Order " + req.PaymentID, nil
	}
	return req.Description, nil
}
