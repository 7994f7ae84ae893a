package app

import (
	"context"
	"net/netip"
	"net/url"
	"time"

	"github.com/gocommerce/commerce/modules/webhooks/api"
	"github.com/gocommerce/commerce/modules/webhooks/domain"
	"github.com/gocommerce/commerce/platform/apperr"
)

// CreateEndpoint registers an endpoint; its secret is in this answer only.
func (s *Service) CreateEndpoint(ctx context.Context, in domain.EndpointInput) (api.Endpoint, error) {
	e, err := domain.NewEndpoint(s.newID(), in, s.clock.Now())
	if err != nil {
		return api.Endpoint{}, err
	}
	if err := s.checkURL(ctx, e.URL); err != nil {
		return api.Endpoint{}, err
	}
	if err := s.tx.InTx(ctx, func(ctx context.Context) error { return s.endpoints.Create(ctx, e) }); err != nil {
		return api.Endpoint{}, err
	}
	s.endpointsChanged()
	return ToEndpoint(e, true), nil
}

// GetEndpoint reads an endpoint.
func (s *Service) GetEndpoint(ctx context.Context, id string) (api.Endpoint, error) {
	e, err := s.endpoints.Get(ctx, id)
	if err != nil {
		return api.Endpoint{}, err
	}
	return ToEndpoint(e, false), nil
}

// ListEndpoints pages the endpoints, oldest first.
func (s *Service) ListEndpoints(ctx context.Context, offset, limit int) ([]api.Endpoint, int64, error) {
	list, total, err := s.endpoints.List(ctx, offset, limit)
	out := make([]api.Endpoint, len(list))
	for i, e := range list {
		out[i] = ToEndpoint(e, false)
	}
	return out, total, err
}

// UpdateEndpoint applies a PATCH body: url (checked again), description, events,
// secret, enabled (enabling clears the failure streak).
func (s *Service) UpdateEndpoint(ctx context.Context, id string, in domain.EndpointInput) (api.Endpoint, error) {
	// The address check may ask DNS: before the transaction (a bad URL's syntax is
	// reported by Update).
	if in.URL.HasValue() {
		if u, msg := domain.CheckURLSyntax(in.URL.Value); msg == "" {
			if err := s.checkURL(ctx, u); err != nil {
				return api.Endpoint{}, err
			}
		}
	}
	var out api.Endpoint
	err := s.tx.InTx(ctx, func(ctx context.Context) error {
		e, err := s.endpoints.Get(ctx, id)
		if err != nil {
			return err
		}
		if err := e.Update(in, s.clock.Now()); err != nil {
			return err
		}
		if err := s.endpoints.Update(ctx, e); err != nil {
			return err
		}
		out = ToEndpoint(e, false)
		return nil
	})
	if err == nil {
		s.endpointsChanged()
	}
	return out, err
}

// DeleteEndpoint removes an endpoint with its deliveries.
func (s *Service) DeleteEndpoint(ctx context.Context, id string) error {
	err := s.tx.InTx(ctx, func(ctx context.Context) error { return s.endpoints.Delete(ctx, id) })
	if err == nil {
		s.endpointsChanged()
	}
	return err
}

// checkURL applies the address policy to a syntactically valid URL: the scheme, then
// (strict) every address the host resolves to, unless the host is allowed by name.
func (s *Service) checkURL(ctx context.Context, raw string) error {
	bad := func(msg string) error { return apperr.Validation(map[string]string{"url": msg}) }
	if msg := s.policy.CheckScheme(raw); msg != "" {
		return bad(msg)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return bad("must be an absolute http or https URL")
	}
	host := u.Hostname()
	if s.policy.HostAllowed(host) {
		return nil
	}
	var addrs []netip.Addr
	if ip, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{ip}
	} else {
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		addrs, _ = s.resolver.LookupNetIP(ctx, "ip", host)
	}
	if msg := s.policy.CheckAddrs(host, addrs); msg != "" {
		return bad(msg)
	}
	return nil
}
