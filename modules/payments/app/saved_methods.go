package app

import (
	"context"
	"errors"
	"strings"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/payments/api"
	"github.com/gocommerce/commerce/modules/payments/domain"
	"github.com/gocommerce/commerce/modules/payments/ports"
	"github.com/gocommerce/commerce/platform/apperr"
)

// SaveMethodCommand tokenizes a card for later payments.
type SaveMethodCommand struct {
	GatewayID     string
	PaymentMethod api.PaymentMethodInput
	SetAsDefault  bool
}

// SaveMethod tokenizes a card at the gateway and keeps the token with the card's brand,
// last four, expiry and holder. The owner's first method, or one saved with
// set_as_default, becomes the owner's one default.
func (s *Service) SaveMethod(ctx context.Context, c Caller, cmd SaveMethodCommand) (*domain.SavedMethod, error) {
	pm := cmd.PaymentMethod
	if pm.Type != "" && pm.Type != domain.MethodCard {
		return nil, domain.ErrInvalidPaymentMethod.WithMessage("Only cards can be saved")
	}
	if pm.Card == nil {
		return nil, domain.ErrInvalidPaymentMethod.WithField("payment_method_data.card", "is required").WithMessage("payment_method_data.card is required")
	}
	card := domain.Card{Number: pm.Card.Number, ExpMonth: pm.Card.ExpMonth, ExpYear: pm.Card.ExpYear, CVC: pm.Card.CVC, Name: pm.Card.Name}
	if err := card.Validate("payment_method_data.card."); err != nil {
		return nil, err
	}
	g, err := s.gateway(cmd.GatewayID)
	if err != nil {
		return nil, err
	}
	if spec, ok := methodSpec(g, domain.MethodCard); !ok || !spec.SupportsTokenization {
		return nil, domain.ErrInvalidPaymentMethod.WithMessage("Gateway %s cannot save cards", g.ID())
	}
	if card.Details().Expired(s.clock.Now()) {
		return nil, domain.ErrInvalidPaymentMethod.WithField("payment_method_data.card.exp_year", "the card has expired").WithMessage("The card has expired")
	}
	res, err := g.SaveMethod(ctx, ports.SaveMethodRequest{Card: card, Owner: c.Scope})
	if err != nil {
		if e, ok := apperr.As(err); ok && e.Kind == apperr.Invalid {
			return nil, err
		}
		return nil, s.providerError("tokenize", g.ID(), err)
	}
	details := card.Details()
	if res.Card != nil && res.Card.LastFour != "" {
		details = *res.Card
	}
	exp := details.ExpiresAt()
	m := &domain.SavedMethod{
		Token: newMethodToken(), Owner: c.Scope, Gateway: g.ID(), ProviderToken: res.ProviderToken,
		ProviderCustomer: res.ProviderCustomer, MethodType: domain.MethodCard, Card: details, ExpiresAt: &exp, CreatedAt: s.clock.Now(),
	}
	for attempt := 0; ; attempt++ {
		err = s.tx.InTx(ctx, func(ctx context.Context) error {
			n, err := s.methods.Count(ctx, c.Scope)
			if err != nil {
				return err
			}
			m.IsDefault = cmd.SetAsDefault || n == 0
			if m.IsDefault {
				if err := s.methods.ClearDefault(ctx, c.Scope); err != nil {
					return err
				}
			}
			return s.methods.Create(ctx, m)
		})
		// Two concurrent defaults collide on the one-default index: try again.
		if err != nil && errors.Is(err, ports.ErrDuplicate) && attempt < 3 {
			continue
		}
		break
	}
	if err != nil {
		return nil, err
	}
	return m, nil
}

// ListSavedMethods returns the caller's saved methods, default first, then newest first.
func (s *Service) ListSavedMethods(ctx context.Context, c Caller, offset, limit int) ([]*domain.SavedMethod, int64, error) {
	return s.methods.List(ctx, c.Scope, offset, limit)
}

// DeleteMethod forgets one of the caller's saved methods (at the provider too, best
// effort). When it was the default, the newest remaining method becomes the default.
func (s *Service) DeleteMethod(ctx context.Context, c Caller, token string) (*domain.SavedMethod, error) {
	token = strings.TrimSpace(token)
	m, err := s.methods.Get(ctx, token)
	if err != nil {
		return nil, err
	}
	if m.Owner != c.Scope {
		return nil, domain.ErrPaymentMethodNotFound
	}
	if g, ok := s.gateways.Get(m.Gateway); ok {
		if err := g.DeleteMethod(ctx, m.ProviderToken, m.ProviderCustomer); err != nil {
			s.log.Warn("gateway could not forget a saved method", zap.String("gateway", m.Gateway), zap.String("token", m.Token), zap.Error(err))
		}
	}
	err = s.tx.InTx(ctx, func(ctx context.Context) error {
		cur, err := s.methods.Get(ctx, token)
		if err != nil {
			return err
		}
		if err := s.methods.Delete(ctx, token); err != nil {
			return err
		}
		if !cur.IsDefault {
			return nil
		}
		next, err := s.methods.Newest(ctx, c.Scope)
		if err != nil || next == nil {
			return err
		}
		return s.methods.SetDefault(ctx, next.Token)
	})
	if err != nil && !errors.Is(err, domain.ErrPaymentMethodNotFound) {
		return nil, err
	}
	return m, nil
}

// forgetBatch is how many of an owner's methods ForgetCustomerMethods reads at a time.
const forgetBatch = 100

// ForgetCustomerMethods removes every method saved for the customer (erasure and
// anonymization: docs/decisions/0097): each is detached at its gateway first, best
// effort (a failure is logged, as for DELETE), then deleted here, so a run stopped half
// way is finished by the next (the event is delivered again). It answers how many it
// removed.
func (s *Service) ForgetCustomerMethods(ctx context.Context, customerID string) (int, error) {
	owner := domain.CustomerOwner(customerID)
	removed := 0
	for {
		ms, _, err := s.methods.List(ctx, owner, 0, forgetBatch)
		if err != nil || len(ms) == 0 {
			return removed, err
		}
		for _, m := range ms {
			if g, ok := s.gateways.Get(m.Gateway); ok {
				if err := g.DeleteMethod(ctx, m.ProviderToken, m.ProviderCustomer); err != nil {
					s.log.Warn("gateway could not forget a saved method of an erased customer",
						zap.String("gateway", m.Gateway), zap.String("token", m.Token), zap.Error(err))
				}
			}
			if err := s.methods.Delete(ctx, m.Token); err != nil {
				return removed, err
			}
			removed++
		}
	}
}
