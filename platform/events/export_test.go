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
		// EXECUTE's arguments as literals (a utility statement takes no parameters).
		lits := make([]string, len(args))
		for i, a := range args {
			switch v := a.(type) {
			case string:
				lits[i] = "'" + strings.ReplaceAll(v, "'", "''") + "'"
			case time.Time:
				lits[i] = "'" + v.UTC().Format(time.RFC3339Nano) + "'"
			default:
				lits[i] = fmt.Sprint(v)
			}
		}
		if err := conn.Raw("EXPLAIN EXECUTE " + name + "(" + strings.Join(lits, ", ") + ")").Scan(&lines).Error; err != nil {
			return err
		}
		return conn.Exec("DEALLOCATE " + name).Error
	})
	if err != nil {
		return "", err
	}
	return strings.Join(lines, "\n"), nil
}
