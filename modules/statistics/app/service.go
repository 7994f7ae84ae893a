// Package app holds the statistics use cases: recording what the order, product and
// customer events say into per-order records and daily rollups, the five admin
// reports read from the rollups, and the customer segments.
package app

import (
	"context"
	"strings"
	"time"
	_ "time/tzdata" // statistics.timezone names any IANA zone, also where the system has none

	"github.com/gocommerce/commerce/modules/statistics/domain"
	"github.com/gocommerce/commerce/modules/statistics/ports"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/tx"
)

// Settings is the module's slice of the configuration (statistics.*).
type Settings struct {
	Location         *time.Location
	Currency         string
	SegmentsInterval time.Duration
}

// SettingsFrom reads statistics.* (validated by config: the zone loads).
func SettingsFrom(cfg *config.Config) Settings {
	loc, err := time.LoadLocation(cfg.Statistics.Timezone)
	if err != nil || cfg.Statistics.Timezone == "" {
		loc = time.UTC
	}
	return Settings{Location: loc, Currency: strings.ToUpper(cfg.Statistics.Currency), SegmentsInterval: cfg.Statistics.SegmentsInterval}
}

// Service is the statistics use cases (and api.Segments).
type Service struct {
	settings Settings
	tx       tx.Manager
	repo     ports.Repository
	clock    clock.Clock
}

// NewService builds the service.
func NewService(s Settings, tm tx.Manager, repo ports.Repository, clk clock.Clock) *Service {
	if s.Location == nil {
		s.Location = time.UTC
	}
	return &Service{settings: s, tx: tm, repo: repo, clock: clk}
}

// day is the store's local day of t.
func (s *Service) day(t time.Time) string { return domain.Day(t, s.settings.Location) }

// InSegment implements api.Segments: whether the customer is in a computed segment
// (false for a name that is none).
func (s *Service) InSegment(ctx context.Context, segment, customerID string) (bool, error) {
	if !domain.IsSegment(segment) || customerID == "" {
		return false, nil
	}
	return s.repo.InSegment(ctx, segment, customerID)
}

// IsSegment implements api.Segments.
func (s *Service) IsSegment(name string) bool { return domain.IsSegment(name) }

// RefreshSegments recomputes the segments (the periodic job) in the primary currency
// (statistics.currency, else the one with the most orders in the last 365 days) and
// answers the number of memberships.
func (s *Service) RefreshSegments(ctx context.Context) (int64, error) {
	now := s.clock.Now()
	today := s.day(now)
	cur := s.settings.Currency
	if cur == "" {
		var err error
		if cur, err = s.repo.TopCurrency(ctx, s.day(now.AddDate(-1, 0, 0)), today); err != nil {
			return 0, err
		}
	}
	var n int64
	err := s.tx.InTx(ctx, func(ctx context.Context) error {
		var err error
		n, err = s.repo.ReplaceSegments(ctx, cur, today)
		return err
	})
	return n, err
}

// Rebuild recomputes every rollup and customer total from the per-order records, in
// one transaction (after a restore, or to check the incremental rollups).
func (s *Service) Rebuild(ctx context.Context) error {
	return s.tx.InTx(ctx, s.repo.Rebuild)
}
