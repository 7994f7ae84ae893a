// Package carrierhttp is what the carrier adapters share: a JSON client on a carrier's
// base URL with OAuth2 client-credentials tokens (cached until shortly before they
// expire) or basic authentication, and one mapping of failures to the module's
// errors: a network error, a timeout, 429 or 5xx is CARRIER_UNAVAILABLE; any other 4xx
// is CARRIER_REJECTED with the carrier's own message.
package carrierhttp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gocommerce/commerce/modules/shipping/domain"
	"github.com/gocommerce/commerce/platform/httpx"
)

// OAuth configures the client-credentials token request.
type OAuth struct {
	Path string // e.g. /security/v1/oauth/token
	// Style is how the credentials travel: "basic" (HTTP basic, form body), "form"
	// (client_id and client_secret in the form body) or "json" (a JSON body).
	Style   string
	Headers map[string]string
}

// Config is a carrier client's configuration.
type Config struct {
	Carrier      string
	BaseURL      string
	ClientID     string
	ClientSecret string
	OAuth        *OAuth // nil: basic authentication on every request
	HTTPClient   *http.Client
	// Message extracts the carrier's error message from an error body.
	Message func(body []byte) string
}

// Client calls one carrier's API.
type Client struct {
	cfg    Config
	tokens httpx.TokenCache
}

// New builds the client.
func New(cfg Config) *Client {
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: 30 * time.Second}
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	return &Client{cfg: cfg}
}

// Unavailable is CARRIER_UNAVAILABLE naming the carrier and the cause.
func (c *Client) Unavailable(format string, args ...any) error {
	return domain.ErrCarrierUnavailable.WithMessage("%s: %s", c.cfg.Carrier, fmt.Sprintf(format, args...))
}

// Rejected is CARRIER_REJECTED naming the carrier and its message.
func (c *Client) Rejected(format string, args ...any) error {
	return domain.ErrCarrierRejected.WithMessage("%s: %s", c.cfg.Carrier, fmt.Sprintf(format, args...))
}

// Do sends a JSON request (body nil: none) and decodes a 2xx answer into out.
func (c *Client) Do(ctx context.Context, method, path string, query url.Values, body any, headers map[string]string, out any) error {
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(raw)
	}
	u := c.cfg.BaseURL + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	if c.cfg.OAuth == nil {
		req.SetBasicAuth(c.cfg.ClientID, c.cfg.ClientSecret)
	} else {
		tok, err := c.tokens.Token(ctx, c.newToken)
		if err != nil {
			return err
		}
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	status, raw, err := c.send(req)
	if err != nil {
		return err
	}
	if status == http.StatusUnauthorized && c.cfg.OAuth != nil {
		c.tokens.Forget() // expired early: ask for a new one next time
	}
	if err := c.check(status, raw); err != nil {
		return err
	}
	if out == nil || len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return c.Unavailable("unreadable answer: %v", err)
	}
	return nil
}

// send performs the request; transport failures and timeouts are unavailable.
func (c *Client) send(req *http.Request) (int, []byte, error) {
	resp, err := c.cfg.HTTPClient.Do(req)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(req.Context().Err(), context.DeadlineExceeded) {
			return 0, nil, fmt.Errorf("%w: %w", c.Unavailable("timed out"), context.DeadlineExceeded)
		}
		return 0, nil, c.Unavailable("request failed: %v", err)
	}
	defer func() { _ = resp.Body.Close() }()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return 0, nil, c.Unavailable("reading the answer: %v", err)
	}
	return resp.StatusCode, raw, nil
}

// check maps a non-2xx status to the module's errors.
func (c *Client) check(status int, raw []byte) error {
	if status >= 200 && status < 300 {
		return nil
	}
	msg := ""
	if c.cfg.Message != nil {
		msg = c.cfg.Message(raw)
	}
	if msg == "" {
		msg = http.StatusText(status)
	}
	if status == http.StatusTooManyRequests || status >= 500 || status == http.StatusUnauthorized || status == http.StatusForbidden {
		return c.Unavailable("%d %s", status, msg)
	}
	return c.Rejected("%s", msg)
}

// newToken asks for a client-credentials token (Do keeps it in c.tokens until a minute
// before it expires) and its lifetime.
func (c *Client) newToken(ctx context.Context) (string, time.Duration, error) {
	o := c.cfg.OAuth
	var body io.Reader
	contentType := "application/x-www-form-urlencoded"
	form := url.Values{"grant_type": {"client_credentials"}}
	switch o.Style {
	case "json":
		raw, _ := json.Marshal(map[string]string{"grant_type": "client_credentials", "client_id": c.cfg.ClientID, "client_secret": c.cfg.ClientSecret})
		body, contentType = bytes.NewReader(raw), "application/json"
	case "form":
		form.Set("client_id", c.cfg.ClientID)
		form.Set("client_secret", c.cfg.ClientSecret)
		body = strings.NewReader(form.Encode())
	default:
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.cfg.BaseURL+o.Path, body)
	if err != nil {
		return "", 0, err
	}
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Accept", "application/json")
	if o.Style == "basic" {
		req.SetBasicAuth(c.cfg.ClientID, c.cfg.ClientSecret)
	}
	for k, v := range o.Headers {
		req.Header.Set(k, v)
	}
	status, raw, err := c.send(req)
	if err != nil {
		return "", 0, err
	}
	if status != http.StatusOK {
		return "", 0, c.Unavailable("OAuth token: status %d", status)
	}
	var t struct {
		AccessToken string          `json:"access_token"`
		ExpiresIn   json.RawMessage `json:"expires_in"` // a number, or a string (UPS)
	}
	if err := json.Unmarshal(raw, &t); err != nil || t.AccessToken == "" {
		return "", 0, c.Unavailable("OAuth token: unreadable answer")
	}
	secs, _ := strconv.Atoi(strings.Trim(string(t.ExpiresIn), `"`))
	if secs <= 0 {
		secs = 300
	}
	return t.AccessToken, time.Duration(secs) * time.Second, nil
}
