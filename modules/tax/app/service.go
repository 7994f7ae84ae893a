// Package app holds the tax use cases: calculation (api.Tax), VAT id validation with
// VIES, rate lookups, shipping tax, OSS reports, zone and rate administration and the
// recording of orders' taxes. Rates are read from an in-memory book, reloaded after a
// change and at most bookTTL after the last load (other processes' changes).
package app

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gocommerce/commerce/modules/tax/api"
	"github.com/gocommerce/commerce/modules/tax/domain"
	"github.com/gocommerce/commerce/modules/tax/ports"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/tx"
)

// bookTTL bounds how stale another process's rate change may be here.
const bookTTL = time.Minute

// Settings is the module's slice of the configuration (tax.*).
type Settings struct {
	OSS            bool   // tax.enable_oss
	OSSMemberState string // tax.oss_member_state
	ValidateVATIDs bool   // tax.validate_vat_ids
	VATCacheDays   int    // tax.vat_cache_days
	TaxIncluded    bool   // tax.default_tax_included
	DefaultZone    string // tax.default_tax_zone: a zone code or a country code
}

// SettingsFrom takes the module's slice of the configuration.
func SettingsFrom(cfg *config.Config) Settings {
	t := cfg.Tax
	return Settings{
		OSS: t.EnableOSS, OSSMemberState: strings.ToUpper(strings.TrimSpace(t.OSSMemberState)),
		ValidateVATIDs: t.ValidateVATIDs, VATCacheDays: t.VATCacheDays, TaxIncluded: t.DefaultTaxIncluded,
		DefaultZone: strings.TrimSpace(t.DefaultTaxZone),
	}
}

// Deps are the service's collaborators.
type Deps struct {
	Repo     ports.Repository
	VIES     ports.VIES
	Provider ports.Provider
}

// Service implements the tax use cases and api.Tax.
type Service struct {
	settings Settings
	tx       tx.Manager
	repo     ports.Repository
	vies     ports.VIES
	provider ports.Provider
	clock    clock.Clock
	book     atomic.Pointer[loadedBook]
	loading  sync.Mutex    // one reload at a time; the others wait and read its book
	changes  atomic.Uint64 // bumped by every committed change: a load that raced one is not kept
}

type loadedBook struct {
	book *domain.Book
	at   time.Time
}

var _ api.Tax = (*Service)(nil)

// NewService builds the service.
func NewService(s Settings, t tx.Manager, d Deps, clk clock.Clock) *Service {
	return &Service{settings: s, tx: t, repo: d.Repo, vies: d.VIES, provider: d.Provider, clock: clk}
}

func (s *Service) now() time.Time { return s.clock.Now().UTC() }

func (s *Service) today() string { return s.now().Format(time.DateOnly) }

// Book returns the rates in memory, loading them when none are loaded or bookTTL
// passed.
func (s *Service) Book(ctx context.Context) (*domain.Book, error) {
	if b := s.fresh(); b != nil {
		return b, nil
	}
	s.loading.Lock()
	defer s.loading.Unlock()
	if b := s.fresh(); b != nil {
		return b, nil
	}
	now, gen := s.now(), s.changes.Load()
	zones, err := s.repo.Zones(ctx)
	if err != nil {
		return nil, err
	}
	rates, err := s.repo.Rates(ctx)
	if err != nil {
		return nil, err
	}
	cats, err := s.repo.Categories(ctx)
	if err != nil {
		return nil, err
	}
	nexus, err := s.repo.Nexus(ctx, now.Year()-1, now.Year())
	if err != nil {
		return nil, err
	}
	b := domain.NewBook(zones, rates, cats, nexus)
	if s.changes.Load() == gen {
		s.book.Store(&loadedBook{book: b, at: now})
	}
	return b, nil
}

// fresh returns the loaded book unless none is loaded, bookTTL passed or the year
// changed (nexus counts calendar years).
func (s *Service) fresh() *domain.Book {
	now := s.now()
	if b := s.book.Load(); b != nil && now.Sub(b.at) < bookTTL && now.Year() == b.at.Year() {
		return b.book
	}
	return nil
}

// changed drops the book once ctx's transaction commits.
func (s *Service) changed(ctx context.Context) {
	s.tx.AfterCommit(ctx, func() {
		s.changes.Add(1)
		s.book.Store(nil)
	})
}

// engineSettings are the engine's settings: the store's country is
// tax.oss_member_state, else tax.default_tax_zone (a country code or a zone's code).
func (s *Service) engineSettings(b *domain.Book) domain.Settings {
	origin := s.settings.OSSMemberState
	if origin == "" && s.settings.DefaultZone != "" {
		origin = strings.ToUpper(s.settings.DefaultZone)
		for _, z := range b.Zones {
			if strings.EqualFold(z.Code, s.settings.DefaultZone) {
				origin = z.CountryCode
			}
		}
	}
	return domain.Settings{Origin: origin, OSS: s.settings.OSS}
}
