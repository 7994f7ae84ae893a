package events

import (
	"context"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"
)

// OutboxRow is the outbox row as stored, for the tests that read the table.
type OutboxRow = outboxRow

// ExplainClaim is PostgreSQL's plan of the relay's claim statement, as it would run now
// (EXPLAIN, not run).
func (r *Relay) ExplainClaim(ctx context.Context) (string, error) {
	q, args := r.claimStatement(r.bus.subscriptions(), "explain", r.Clock.Now().UTC())
	var lines []string
	// The plan the relay runs: the prepared statement's (generic) plan, in the
	// claim's transaction.
	err := r.inClaimPlan(ctx, func(conn *gorm.DB) error {
		name := fmt.Sprintf("claim_probe_%d", time.Now().UnixNano()) // PREPARE outlives a rollback
		if err := conn.Exec("PREPARE " + name + " AS " + r.db.Rebind(q)).Error; err != nil {
			return err
		}
		// EXECUTE's arguments inlined (a utility statement takes no parameters).
		params := make([]string, len(args))
		for i := range args {
			params[i] = fmt.Sprintf("$%d", i+1)
		}
		explain := conn.Explain("EXPLAIN EXECUTE "+name+"("+strings.Join(params, ", ")+")", args...)
		if err := conn.Raw(explain).Scan(&lines).Error; err != nil {
			return err
		}
		return conn.Exec("DEALLOCATE " + name).Error
	})
	if err != nil {
		return "", err
	}
	return strings.Join(lines, "\n"), nil
}
