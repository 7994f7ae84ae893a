package httpxtest

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/auth"
	"github.com/gocommerce/commerce/platform/config"
)

// Principals is a fake auth.Authenticator: it maps a bearer credential to its
// principal. A key ending in ":" names a family: with "cust:" in the table, the
// credential "cust:<id>" is a copy of that principal with ID <id>. Any other credential
// is refused as an invalid token (401), as the real authenticator refuses it.
//
//	var callers = httpxtest.Principals{
//		"admin":  httpxtest.APIKey("k1", "admin"),
//		"reader": httpxtest.APIKey("k2", "carts:read"),
//		"staff":  httpxtest.Staff("s1", ""),
//		"cust:":  httpxtest.Customer("", ""),
//	}
type Principals map[string]*auth.Principal

// Authenticate implements auth.Authenticator.
func (p Principals) Authenticate(_ context.Context, credential, _ string) (*auth.Principal, error) {
	if pr, ok := p[credential]; ok {
		return pr, nil
	}
	if family, id, ok := strings.Cut(credential, ":"); ok {
		if pr, ok := p[family+":"]; ok {
			c := *pr
			c.ID = id
			return &c, nil
		}
	}
	return nil, apperr.Unauthorized("Unauthorized: Invalid token")
}

// Preset is what most harnesses' callers start from: "admin" (an API key, prefix "k1",
// with the admin scope), "staff" (staff user "s1") and "cust:" (any customer's token,
// "cust:<id>", with the default customer scopes). A harness adds its own with With.
func Preset() Principals {
	return Principals{"admin": APIKey("k1", "admin"), "staff": Staff("s1", ""), "cust:": Customer("", "")}
}

// With answers a copy of p with more's entries added (replacing p's of the same name).
func (p Principals) With(more Principals) Principals {
	out := maps.Clone(p)
	maps.Copy(out, more)
	return out
}

// APIKey is an API key principal whose id and public prefix are both prefix.
func APIKey(prefix string, scopes ...string) *auth.Principal {
	return &auth.Principal{Kind: auth.APIKey, ID: prefix, KeyPrefix: prefix, Scopes: scopes}
}

// Staff is a staff user with the admin scope.
func Staff(id, email string) *auth.Principal {
	return &auth.Principal{Kind: auth.Staff, ID: id, Email: email, Scopes: []string{"admin"}}
}

// Customer is a customer token: the extra scopes, then the default customer scopes
// (config's security.customer_scopes).
func Customer(id, email string, extra ...string) *auth.Principal {
	return &auth.Principal{Kind: auth.Customer, ID: id, Email: email, Scopes: slices.Concat(extra, config.Default().Security.CustomerScopes)}
}
