package events

import (
	"context"
	"strings"

	"gorm.io/gorm"
)

// OutboxRow is the outbox row as stored, for the tests that read the table.
type OutboxRow = outboxRow

// ExplainClaim is PostgreSQL's plan of the relay's claim statement, as it would run now
// (EXPLAIN, not run).
func (r *Relay) ExplainClaim(ctx context.Context) (string, error) {
	q, args := r.claimStatement(r.bus.subscriptions(), "explain", r.Clock.Now().UTC())
	var lines []string
	if err := r.inClaimPlan(ctx, func(conn *gorm.DB) error { return conn.Raw("EXPLAIN "+q, args...).Scan(&lines).Error }); err != nil {
		return "", err
	}
	return strings.Join(lines, "\n"), nil
}
