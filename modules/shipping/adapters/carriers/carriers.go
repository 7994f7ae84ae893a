// Package carriers builds shipping's carriers from shipping.*: each carrier's API
// adapter (UPS, FedEx, USPS, DHL) when its credentials are configured, else its
// built-in rate table.
package carriers

import (
	"net/http"

	"github.com/gocommerce/commerce/modules/shipping/adapters/dhl"
	"github.com/gocommerce/commerce/modules/shipping/adapters/fedex"
	"github.com/gocommerce/commerce/modules/shipping/adapters/internal/carrierhttp"
	"github.com/gocommerce/commerce/modules/shipping/adapters/ratetable"
	"github.com/gocommerce/commerce/modules/shipping/adapters/ups"
	"github.com/gocommerce/commerce/modules/shipping/adapters/usps"
	"github.com/gocommerce/commerce/modules/shipping/app"
	"github.com/gocommerce/commerce/modules/shipping/domain"
	"github.com/gocommerce/commerce/modules/shipping/ports"
	"github.com/gocommerce/commerce/platform/config"
)

// New builds one carrier per code: its API adapter when client_id and
// client_secret are set under shipping.<carrier>, else its built-in rate table.
func New(cfg *config.Config) app.Carriers {
	out := make(app.Carriers, 0, len(domain.Carriers))
	for _, code := range domain.Carriers {
		if c := liveCarrier(cfg, code); c != nil {
			out = append(out, c)
			continue
		}
		out = append(out, ratetable.New(code))
	}
	return out
}

// liveCarrier returns the carrier's API adapter when its credentials are configured,
// else nil.
func liveCarrier(cfg *config.Config, code string) ports.Carrier {
	c := map[string]config.Carrier{domain.UPS: cfg.Shipping.UPS, domain.FedEx: cfg.Shipping.FedEx, domain.USPS: cfg.Shipping.USPS,
		domain.DHL: cfg.Shipping.DHL}[code]
	if c.ClientID == "" || c.ClientSecret == "" {
		return nil
	}
	acct := carrierhttp.Account{ClientID: c.ClientID, ClientSecret: c.ClientSecret, AccountNumber: c.AccountNumber, BaseURL: c.BaseURL,
		HTTPClient: &http.Client{Timeout: cfg.Shipping.LabelTimeout}}
	switch code {
	case domain.UPS:
		return ups.New(acct)
	case domain.FedEx:
		return fedex.New(acct)
	case domain.USPS:
		return usps.New(acct)
	default:
		return dhl.New(acct)
	}
}
