package carrierhttp

import (
	"net/http"

	"github.com/gocommerce/commerce/modules/shipping/domain"
)

// Account is a carrier's section of shipping.<carrier>: the API credentials (OAuth
// client, or DHL's API key and secret), the shipper's account number, the base URL.
type Account struct {
	ClientID, ClientSecret, AccountNumber, BaseURL string
	HTTPClient                                     *http.Client
}

// Base is what every live adapter shares: its code, its client and the ports.Carrier
// methods that do not call the API.
type Base struct {
	Account Account
	Client  *Client
	code    string
}

// NewBase builds the client of a carrier's account (oauth nil: basic authentication).
func NewBase(code string, a Account, oauth *OAuth, msg func([]byte) string) Base {
	return Base{Account: a, code: code, Client: New(Config{Carrier: code, BaseURL: a.BaseURL, ClientID: a.ClientID,
		ClientSecret: a.ClientSecret, OAuth: oauth, HTTPClient: a.HTTPClient, Message: msg})}
}

// Code is the carrier code.
func (b Base) Code() string { return b.code }

// Live is true: the carrier's API answers.
func (b Base) Live() bool { return true }

// TrackingURL is the carrier's public tracking page.
func (b Base) TrackingURL(n string) string { return domain.TrackingURL(b.code, n) }
