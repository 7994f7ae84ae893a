// Package vies is the EU VIES REST client (tax.vies_url, tax.vies_timeout): GET
// {base}/ms/{country}/vat/{number} answers whether a VAT number is registered, with the
// trader's name and address where the member state discloses them.
package vies

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gocommerce/commerce/modules/tax/domain"
	"github.com/gocommerce/commerce/modules/tax/ports"
	"github.com/gocommerce/commerce/platform/config"
)

// Client calls VIES.
type Client struct {
	base    string
	timeout time.Duration
	http    *http.Client
}

var _ ports.VIES = (*Client)(nil)

// New builds a client on tax.vies_url with tax.vies_timeout per call.
func New(cfg *config.Config) *Client {
	return NewClient(cfg.Tax.VIESURL, cfg.Tax.VIESTimeout, http.DefaultTransport)
}

// NewClient builds a client on a base URL.
func NewClient(base string, timeout time.Duration, rt http.RoundTripper) *Client {
	return &Client{base: strings.TrimRight(base, "/"), timeout: timeout, http: &http.Client{Transport: rt}}
}

// answer is VIES's response to a check (checkVatNumber of the REST API).
type answer struct {
	IsValid   *bool  `json:"isValid"`
	Valid     *bool  `json:"valid"` // the POST /check-vat-number spelling
	UserError string `json:"userError"`
	Name      string `json:"name"`
	Address   string `json:"address"`
}

// busy are the userError values that mean "ask again later", not "invalid".
var busy = map[string]bool{
	"MS_UNAVAILABLE": true, "TIMEOUT": true, "SERVICE_UNAVAILABLE": true, "MS_MAX_CONCURRENT_REQ": true,
	"GLOBAL_MAX_CONCURRENT_REQ": true, "SERVER_BUSY": true, "IP_BLOCKED": true, "VAT_BLOCKED": true,
}

// Check asks VIES about a VAT id. A network error, a timeout, a 5xx or a busy member
// state is domain.ErrVIESUnavailable.
func (c *Client) Check(ctx context.Context, id domain.VATID) (*ports.VATCheck, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	u := fmt.Sprintf("%s/ms/%s/vat/%s", c.base, url.PathEscape(id.Prefix), url.PathEscape(id.Number))
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, domain.ErrVIESUnavailable.WithCause(err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, domain.ErrVIESUnavailable.WithCause(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, domain.ErrVIESUnavailable.WithCause(err)
	}
	var a answer
	if resp.StatusCode != http.StatusOK || json.Unmarshal(body, &a) != nil {
		return nil, domain.ErrVIESUnavailable.WithCause(fmt.Errorf("vies: status %d: %.200s", resp.StatusCode, body))
	}
	if busy[a.UserError] {
		return nil, domain.ErrVIESUnavailable.WithCause(fmt.Errorf("vies: %s", a.UserError))
	}
	valid := a.IsValid
	if valid == nil {
		valid = a.Valid
	}
	if valid == nil {
		return nil, domain.ErrVIESUnavailable.WithCause(fmt.Errorf("vies: no validity in %.200s", body))
	}
	return &ports.VATCheck{Valid: *valid, Name: disclosed(a.Name), Address: disclosed(a.Address), CountryCode: id.Country}, nil
}

// disclosed drops VIES's "---" (not disclosed by the member state).
func disclosed(s string) string {
	s = strings.TrimSpace(s)
	if s == "---" {
		return ""
	}
	return s
}
