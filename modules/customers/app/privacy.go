package app

import (
	"context"
	"time"

	"github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/modules/customers/ports"
	"github.com/gocommerce/commerce/platform/clock"
)

// Export is every piece of data the service holds on a customer (data portability).
type Export struct {
	ExportedAt    time.Time
	Customer      api.Customer // with addresses and metafields
	Consents      Consents
	Account       Account
	OrderFacts    []domain.OrderFact
	Orders        []ports.Record
	Carts         []ports.Record
	Subscriptions []ports.Record
	Notifications []ports.Record
	PrivacyAudit  []ports.AuditEntry
}

// Consents are the customer's marketing consent and its date.
type Consents struct {
	AcceptsMarketing bool
	MarketingOptInAt *time.Time
}

// Account is the login state: whether a password is set (never the hash) and the
// pending emailed tokens (never the tokens).
type Account struct {
	State         string
	HasPassword   bool
	VerifiedEmail bool
	AnonymizedAt  *time.Time
	PendingTokens []domain.AccountToken
}

// Export gathers the customer's data (a customer may export its own), records the
// export in the privacy audit and publishes customer.exported.
func (s *Service) Export(ctx context.Context, a Actor, id string) (Export, error) {
	var out Export
	err := s.tx.InTx(ctx, func(ctx context.Context) error {
		c, err := s.load(ctx, a, id)
		if err != nil {
			return err
		}
		now := s.clock.Now()
		if err := s.recordAudit(ctx, a, c.ID, ports.ActionExport, now); err != nil {
			return err
		}
		if err := s.events.Publish(ctx, api.EventCustomerExported, string(c.ID), api.CustomerExported{CustomerID: string(c.ID), Actor: a.ClientID, ExportedAt: now.UTC()}); err != nil {
			return err
		}
		out = Export{ExportedAt: now.UTC(), Consents: Consents{AcceptsMarketing: c.AcceptsMarketing, MarketingOptInAt: clock.UTCPtr(c.MarketingOptInAt)},
			Account: Account{State: string(c.State), HasPassword: c.HasPassword, VerifiedEmail: c.VerifiedEmail, AnonymizedAt: clock.UTCPtr(c.AnonymizedAt)}}
		if out.Customer, err = s.view(ctx, c); err != nil {
			return err
		}
		if out.Account.PendingTokens, err = s.tokens.ForCustomer(ctx, c.ID); err != nil {
			return err
		}
		if out.OrderFacts, err = s.stats.ForCustomer(ctx, c.ID); err != nil {
			return err
		}
		if out.PrivacyAudit, err = s.audit.ForCustomer(ctx, c.ID); err != nil {
			return err
		}
		if out.Orders, err = s.orders.ExportOrders(ctx, string(c.ID)); err != nil {
			return err
		}
		if out.Carts, err = s.carts.Export(ctx, string(c.ID)); err != nil {
			return err
		}
		if out.Subscriptions, err = s.subs.Export(ctx, string(c.ID)); err != nil {
			return err
		}
		out.Notifications, err = s.notes.Export(ctx, string(c.ID))
		return err
	})
	return out, err
}

// Anonymize replaces the customer's personal data with irreversible placeholders,
// deletes its addresses, login and account tokens, revokes its access and refresh
// tokens (docs/decisions/0096), disables it and keeps its order history and
// statistics (staff and keys only). Audited; publishes customer.anonymized (and
// customer.disabled when it was not disabled yet).
func (s *Service) Anonymize(ctx context.Context, a Actor, id string) (api.Customer, error) {
	var out api.Customer
	err := s.staffTx(ctx, a, id, func(ctx context.Context, cid domain.CustomerID) error {
		var disabled bool
		now := s.clock.Now()
		c, err := s.repo.Update(ctx, cid, func(c *domain.Customer) error {
			disabled = c.Anonymize(randomPlaceholder(), now)
			return nil
		})
		if err != nil {
			return err
		}
		if err := s.forgetAccess(ctx, cid); err != nil {
			return err
		}
		if err := s.recordAudit(ctx, a, cid, ports.ActionAnonymize, now); err != nil {
			return err
		}
		out, err = s.publishChange(ctx, api.EventCustomerAnonymized, c, disabled)
		return err
	})
	return out, err
}

// forgetAccess deletes the customer's addresses, login and account tokens and revokes
// its access and refresh tokens (docs/decisions/0096): what Delete and Anonymize both
// erase.
func (s *Service) forgetAccess(ctx context.Context, cid domain.CustomerID) error {
	id := string(cid)
	if err := s.addrs.DeleteAll(ctx, cid); err != nil {
		return err
	}
	if err := s.creds.DeleteCredentials(ctx, id); err != nil {
		return err
	}
	if err := s.creds.RevokeTokens(ctx, id); err != nil {
		return err
	}
	return s.tokens.DeleteForCustomer(ctx, cid)
}

// recordAudit writes the privacy audit entry of a's action on cid.
func (s *Service) recordAudit(ctx context.Context, a Actor, cid domain.CustomerID, action ports.PrivacyAction, at time.Time) error {
	return s.audit.Record(ctx, ports.AuditEntry{ID: s.newID(), CustomerID: cid, Action: action, Actor: a.ClientID, ActorKind: a.Kind, CreatedAt: at})
}
