package app

import (
	"context"
	"strings"

	"github.com/gocommerce/commerce/modules/carts/api"
	"github.com/gocommerce/commerce/modules/carts/domain"
	"github.com/gocommerce/commerce/platform/ids"
)

// ReadCart returns a cart the caller may read whatever its status (api.Carts).
func (s *Service) ReadCart(ctx context.Context, a api.Access) (api.Cart, error) {
	if !ids.Valid(a.CartID) {
		return api.Cart{}, domain.ErrCartNotFound
	}
	c, err := s.repo.Get(ctx, domain.CartID(strings.ToLower(a.CartID)))
	if err != nil {
		return api.Cart{}, err
	}
	if !allowed(c, Caller{SessionToken: a.SessionToken, Principal: a.Principal}, false) {
		return api.Cart{}, domain.ErrCartNotFound
	}
	return s.toAPICart(c), nil
}
