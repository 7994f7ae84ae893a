package app

import (
	"context"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/payments/domain"
	"github.com/gocommerce/commerce/modules/payments/ports"
)

// GatewayMethods is one gateway's entry of the methods operation.
type GatewayMethods struct {
	GatewayID   string
	GatewayName string
	Currency    domain.Currency
	Methods     []MethodOffer
}

// MethodOffer is one method with its amount bounds in the asked currency.
type MethodOffer struct {
	Spec      ports.MethodSpec
	MinAmount decimal.Decimal
	MaxAmount decimal.Decimal
}

// ListMethods answers POST /payments/methods: every enabled gateway with the methods
// that take the currency and the amount (gateways with none are left out).
func (s *Service) ListMethods(_ context.Context, currency, amount string) ([]GatewayMethods, error) {
	c, err := domain.ParseCurrency(currency)
	if err != nil {
		return nil, err
	}
	amt, err := domain.ParseAmount(amount, c)
	if err != nil {
		return nil, err
	}
	out := []GatewayMethods{}
	for _, g := range s.gateways.Enabled() {
		entry := GatewayMethods{GatewayID: g.ID(), GatewayName: g.Name(), Currency: c}
		for _, m := range g.Methods() {
			if !m.Supports(c, amt) {
				continue
			}
			entry.Methods = append(entry.Methods, MethodOffer{
				Spec: m, MinAmount: domain.FromMinor(m.MinMinor, c), MaxAmount: domain.FromMinor(m.MaxMinor, c),
			})
		}
		if len(entry.Methods) > 0 {
			out = append(out, entry)
		}
	}
	return out, nil
}

// methodSpec finds the gateway's spec for a method type (saved cards are cards).
func methodSpec(g ports.Gateway, methodType string) (ports.MethodSpec, bool) {
	if methodType == domain.MethodSavedCard {
		methodType = domain.MethodCard
	}
	for _, m := range g.Methods() {
		if m.MethodType == methodType {
			return m, true
		}
	}
	return ports.MethodSpec{}, false
}
