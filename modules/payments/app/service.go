// Package app holds the payments use cases: methods, initiate (with idempotency keys),
// complete, capture, cancel, refund, saved methods and provider webhooks. A use case
// never holds a database transaction across a gateway call: it stores its intent,
// commits, calls the provider, then records the answer (and its events) in a second
// transaction.
package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/payments/api"
	"github.com/gocommerce/commerce/modules/payments/domain"
	"github.com/gocommerce/commerce/modules/payments/ports"
	"github.com/gocommerce/commerce/platform/auth"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/tx"
)

// Settings are the module's tunables.
type Settings struct {
	// PublicURL is the service's public base URL (http.public_url); the hosted action
	// page and provider notify URLs are built on it. Empty: the request's own base.
	PublicURL string
	// ActionTTL is how long a requires_action payment waits for its customer action.
	ActionTTL time.Duration
}

// DefaultSettings are the defaults (docs/decisions/0052-payment-responses.md).
func DefaultSettings() Settings {
	return Settings{ActionTTL: 15 * time.Minute}
}

// Caller is who asks: the idempotency scope and saved-method owner, the customer (a
// customer sees and acts on their own payments only), and whether the caller is the
// merchant (API keys, staff, other modules), who may capture and refund.
type Caller struct {
	Scope      string // "customer:<id>", "api_key:<id>", "staff:<id>" or "system"
	CustomerID string
	Merchant   bool
	// BaseURL is the service's base URL as the client sees it (hosted pages, notify URLs).
	BaseURL string
}

// System is the trusted caller of the api.Payments interface.
var System = Caller{Scope: "system", Merchant: true}

// CallerFrom builds the caller of an authenticated principal.
func CallerFrom(p *auth.Principal, baseURL string) Caller {
	if p == nil {
		return Caller{Scope: "anonymous", BaseURL: baseURL}
	}
	c := Caller{Scope: string(p.Kind) + ":" + p.ID, BaseURL: baseURL}
	if p.IsCustomer() {
		c.CustomerID = p.ID
	} else {
		c.Merchant = true
	}
	return c
}

// Service implements the payments use cases and api.Payments.
type Service struct {
	settings Settings
	tx       tx.Manager
	gateways ports.Gateways
	payments ports.PaymentRepository
	refunds  ports.RefundRepository
	methods  ports.SavedMethodRepository
	idem     ports.IdempotencyRepository
	webhooks ports.WebhookEventRepository
	events   event.Publisher
	clock    clock.Clock
	log      *zap.Logger
}

var _ api.Payments = (*Service)(nil)

// NewService builds the payments service.
func NewService(settings Settings, tm tx.Manager, gateways ports.Gateways, payments ports.PaymentRepository,
	refunds ports.RefundRepository, methods ports.SavedMethodRepository, idem ports.IdempotencyRepository,
	webhooks ports.WebhookEventRepository, pub event.Publisher, clk clock.Clock, log *zap.Logger,
) *Service {
	if settings.ActionTTL <= 0 {
		settings.ActionTTL = DefaultSettings().ActionTTL
	}
	return &Service{
		settings: settings, tx: tm, gateways: gateways, payments: payments, refunds: refunds, methods: methods,
		idem: idem, webhooks: webhooks, events: pub, clock: clk, log: log.Named("payments"),
	}
}

func newPaymentID() string { return "pay_" + ids.New() }
func newRefundID() string  { return refundIDPrefix + ids.New() }

// refundIDPrefix starts every refund id.
const refundIDPrefix = "ref_"

func newMethodToken() string {
	return "pm_" + ids.New()
}

// gateway returns an enabled gateway (GATEWAY_NOT_FOUND otherwise).
func (s *Service) gateway(id string) (ports.Gateway, error) {
	if id == "" {
		id = s.gateways.Default()
	}
	g, ok := s.gateways.Get(id)
	if !ok {
		return nil, domain.ErrGatewayNotFound.WithMessage("Payment gateway %q not found or not enabled", id)
	}
	return g, nil
}

func (s *Service) baseURL(c Caller) string {
	if s.settings.PublicURL != "" {
		return strings.TrimRight(s.settings.PublicURL, "/")
	}
	return strings.TrimRight(c.BaseURL, "/")
}

// visible loads a payment the caller may see (PAYMENT_NOT_FOUND otherwise).
func (s *Service) visible(ctx context.Context, c Caller, id string) (*domain.Payment, error) {
	p, err := s.payments.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if !c.Merchant && (c.CustomerID == "" || p.CustomerID != c.CustomerID) {
		return nil, domain.ErrPaymentNotFound
	}
	return p, nil
}

// mutate loads a payment inside a transaction, lets fn change it and saves it, retrying
// when a concurrent writer got there first (optimistic version check).
func (s *Service) mutate(ctx context.Context, id string, fn func(ctx context.Context, p *domain.Payment) error) (*domain.Payment, error) {
	return s.mutateKnown(ctx, id, nil, fn)
}

// mutateKnown is mutate starting from known, the payment as this process last wrote
// it (no read when no one changed it since: the version-guarded update tells).
func (s *Service) mutateKnown(ctx context.Context, id string, known *domain.Payment, fn func(ctx context.Context, p *domain.Payment) error) (*domain.Payment, error) {
	var out *domain.Payment
	for attempt := 0; ; attempt++ {
		err := s.tx.InTx(ctx, func(ctx context.Context) error {
			var p *domain.Payment
			if attempt == 0 && known != nil {
				cp := *known
				p = &cp
			} else {
				var err error
				if p, err = s.payments.Get(ctx, id); err != nil {
					return err
				}
			}
			if err := fn(ctx, p); err != nil {
				return err
			}
			if err := s.payments.Update(ctx, p); err != nil {
				return err
			}
			out = p
			return nil
		})
		if errors.Is(err, ports.ErrStale) && attempt < 20 {
			continue
		}
		return out, err
	}
}

func (s *Service) publishPayment(ctx context.Context, eventType string, p *domain.Payment, subscription map[string]string) error {
	if err := s.events.Publish(ctx, eventType, p.ID, toPaymentEvent(p, subscription)); err != nil {
		return fmt.Errorf("payments: publish %s: %w", eventType, err)
	}
	return nil
}

func (s *Service) publishRefund(ctx context.Context, eventType string, r *domain.Refund) error {
	if err := s.events.Publish(ctx, eventType, r.ID, toRefundEvent(r)); err != nil {
		return fmt.Errorf("payments: publish %s: %w", eventType, err)
	}
	return nil
}
