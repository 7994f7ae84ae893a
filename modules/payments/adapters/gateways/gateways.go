// Package gateways builds the set of enabled gateways from payment.* configuration.
package gateways

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/gocommerce/commerce/modules/payments/adapters/alipay"
	"github.com/gocommerce/commerce/modules/payments/adapters/paypal"
	"github.com/gocommerce/commerce/modules/payments/adapters/stripe"
	"github.com/gocommerce/commerce/modules/payments/adapters/testgateway"
	"github.com/gocommerce/commerce/modules/payments/adapters/wechatpay"
	"github.com/gocommerce/commerce/modules/payments/ports"
	"github.com/gocommerce/commerce/platform/config"
)

// Registry is the set of enabled gateways.
type Registry struct {
	byID  map[string]ports.Gateway
	order []ports.Gateway
	def   string
}

var _ ports.Gateways = (*Registry)(nil)

// New builds a registry of the given gateways with a default gateway id.
func New(defaultID string, gs ...ports.Gateway) *Registry {
	r := &Registry{byID: map[string]ports.Gateway{}, def: defaultID}
	for _, g := range gs {
		if g == nil {
			continue
		}
		r.byID[g.ID()] = g
		r.order = append(r.order, g)
	}
	return r
}

// Get returns an enabled gateway.
func (r *Registry) Get(id string) (ports.Gateway, bool) {
	g, ok := r.byID[id]
	return g, ok
}

// Enabled lists the enabled gateways in configuration order.
func (r *Registry) Enabled() []ports.Gateway { return r.order }

// Default is payment.default_gateway.
func (r *Registry) Default() string { return r.def }

// FromConfig builds the enabled gateways of payment.*; a bad key (e.g. a PEM that does
// not parse) stops start-up with an error naming it.
func FromConfig(cfg config.Payment) (*Registry, error) {
	client := &http.Client{Timeout: 30 * time.Second}
	var gs []ports.Gateway
	var errs []error
	if c := cfg.Test; c.Enabled {
		gs = append(gs, testgateway.New(testgateway.Config{CaptureMethod: c.CaptureMethod, WebhookSecret: c.WebhookSecret}))
	}
	if c := cfg.Stripe; c.Enabled {
		gs = append(gs, stripe.New(stripe.Config{
			APIKey: c.APIKey, WebhookSecret: c.WebhookSecret, CaptureMethod: c.CaptureMethod,
			StatementDescriptor: c.StatementDescriptor, BaseURL: c.BaseURL, HTTPClient: client,
		}))
	}
	if c := cfg.PayPal; c.Enabled {
		gs = append(gs, paypal.New(paypal.Config{
			ClientID: c.ClientID, Secret: c.APIKey, WebhookID: c.WebhookSecret, CaptureMethod: c.CaptureMethod,
			BaseURL: c.BaseURL, HTTPClient: client,
		}))
	}
	if c := cfg.Alipay; c.Enabled {
		g, err := alipay.New(alipay.Config{AppID: c.AppID, PrivateKeyPEM: c.PrivateKey, AlipayPublicKeyPEM: c.PublicKey, BaseURL: c.BaseURL, HTTPClient: client})
		if err != nil {
			errs = append(errs, fmt.Errorf("config: payment.alipay: %w", err))
		} else {
			gs = append(gs, g)
		}
	}
	if c := cfg.WeChatPay; c.Enabled {
		g, err := wechatpay.New(wechatpay.Config{
			AppID: c.AppID, MerchantID: c.MerchantID, PrivateKeyPEM: c.PrivateKey, PlatformPublicKeyPEM: c.PublicKey,
			APIv3Key: c.WebhookSecret, SerialNo: c.SerialNo, BaseURL: c.BaseURL, HTTPClient: client,
		})
		if err != nil {
			errs = append(errs, fmt.Errorf("config: payment.wechat_pay: %w", err))
		} else {
			gs = append(gs, g)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return New(cfg.DefaultGateway, gs...), nil
}
