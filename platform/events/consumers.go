package events

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"go.uber.org/zap"
)

// The registry of consumers (decision 0109). Every process's relay registers its
// consumers (module name and event types, "*" for all) in event_consumers when it
// starts and again every Refresh, its heartbeat, and loads every process's. With it:
//
//   - the outbox stores an event delivered only when no live consumer of any process
//     wants its type (Handles; the registry is trusted for 3×Refresh after a load, then
//     every event is stored pending until the next load succeeds);
//   - a relay claims an event when a local consumer wants it and has not handled it, or
//     when no live registered consumer still waits for it, and marks it delivered only
//     when none does (the check reads event_consumers in the marking statement);
//   - a consumer registered for the first time, or again after it expired, catches up:
//     CatchUp after its registration, a process that has it re-opens the events of its
//     types stored delivered from CatchUp before the registration, which processes that
//     had not loaded it yet may have stored delivered.
//
// A consumer is live while some process registered it within ConsumerExpiry.

// filteredAll is the registered type of a consumer of every event whose interest a
// filter decides (SubscribeFiltered; decision 0234): each process of it decides from
// its own filter whether an event is stored pending (Handles), so it does not make
// every type wanted, and no event waits for it (a type no relay's waitingConsumer
// matches). Its catch-up re-opens nothing (no event has that type).
const filteredAll = "*filtered"

// registryView is what a relay last loaded of every process's consumers.
type registryView struct {
	at    time.Time       // when it was loaded (the relay's clock)
	all   bool            // a live consumer wants every type
	types map[string]bool // the types live consumers want
}

// consumerRow is a row of event_consumers.
type consumerRow struct {
	Consumer     string
	EventType    string
	RegisteredAt time.Time
	SeenAt       time.Time
	CaughtUpAt   *time.Time
}

func (consumerRow) TableName() string { return "event_consumers" }

func (r *Relay) refresh() time.Duration {
	if r.Refresh <= 0 {
		return DefaultRefresh
	}
	return r.Refresh
}

// stale is how long a loaded registry is trusted.
func (r *Relay) stale() time.Duration { return 3 * r.refresh() }

// liveSince is the oldest heartbeat of a live consumer at now.
func (r *Relay) liveSince(now time.Time) time.Time {
	expiry := r.ConsumerExpiry
	if expiry <= 0 {
		expiry = DefaultConsumerExpiry
	}
	return now.Add(-expiry)
}

func (r *Relay) catchUp() time.Duration {
	if r.CatchUp <= 0 {
		return DefaultCatchUp
	}
	return r.CatchUp
}

// Handles reports whether any process may want events of the type (Router, for
// Outbox.Route): a consumer of this process does, or a live consumer in the registry
// loaded within 3×Refresh does. Without a fresh registry it answers true, so the event
// is stored pending and a relay decides. It runs on every publish: memory only.
func (r *Relay) Handles(eventType string) bool {
	if r.bus.Handles(eventType) {
		return true
	}
	v := r.registry.Load()
	if v == nil || r.Clock.Now().UTC().Sub(v.at) > r.stale() {
		return true
	}
	return v.all || v.types[eventType]
}

// Register records the process's consumers in the registry (a new registration when
// the consumer was unknown or had expired, a heartbeat otherwise), loads every
// process's, and runs the catch-up of this process's newly registered consumers that
// is due. Run calls it at start and every Refresh.
func (r *Relay) Register(ctx context.Context) error {
	now := r.Clock.Now().UTC().Truncate(time.Microsecond)
	live := r.liveSince(now)
	local := map[[2]string]bool{}
	var values []string
	var args []any
	for _, sub := range r.bus.subscriptions() {
		for _, typ := range sub.types {
			if typ == "*" && sub.filtered {
				typ = filteredAll
			}
			local[[2]string{sub.consumer, typ}] = true
			values = append(values, "(?, ?, ?, ?)")
			args = append(args, sub.consumer, typ, now, now)
		}
	}
	conn := r.db.Conn(ctx)
	if len(values) > 0 {
		err := conn.Exec(`INSERT INTO event_consumers (consumer, event_type, registered_at, seen_at) VALUES `+strings.Join(values, ", ")+`
ON CONFLICT (consumer, event_type) DO UPDATE SET
  registered_at = CASE WHEN event_consumers.seen_at < ? THEN excluded.registered_at ELSE event_consumers.registered_at END,
  caught_up_at = CASE WHEN event_consumers.seen_at < ? THEN NULL ELSE event_consumers.caught_up_at END,
  seen_at = excluded.seen_at`, append(args, live, live)...).Error
		if err != nil {
			return fmt.Errorf("events: register consumers: %w", err)
		}
	}
	var rows []consumerRow
	if err := conn.Raw("SELECT consumer, event_type, registered_at, seen_at, caught_up_at FROM event_consumers").Scan(&rows).Error; err != nil {
		return fmt.Errorf("events: load consumers: %w", err)
	}
	v := &registryView{at: now, types: map[string]bool{}}
	var due []consumerRow
	for _, c := range rows {
		if c.SeenAt.Before(live) {
			continue
		}
		if c.EventType == "*" {
			v.all = true
		}
		v.types[c.EventType] = true
		if local[[2]string{c.Consumer, c.EventType}] && c.CaughtUpAt == nil && !c.RegisteredAt.After(now.Add(-r.catchUp())) {
			due = append(due, c)
		}
	}
	r.registry.Store(v)
	for _, c := range due {
		if err := r.catchUpConsumer(ctx, c, now); err != nil {
			return err
		}
	}
	return nil
}

// catchUpConsumer re-opens the events of the consumer's type that were marked
// delivered from CatchUp before its registration on without it having handled them:
// those stored delivered by a process whose registry did not know it yet, and those
// another consumer's delivery settled before the registration. Relays then deliver
// them to the consumers that have not handled them (never again to one that has: the
// list says who did). Events settled by relays of versions before decision 0109, which
// recorded no consumers, are left alone: their consumers have all had them.
func (r *Relay) catchUpConsumer(ctx context.Context, c consumerRow, now time.Time) error {
	conn := r.db.Conn(ctx)
	q := conn.Model(&outboxRow{}).
		Where("published_at IS NOT NULL AND published_at >= ? AND (attempts = 0 OR delivered_to <> '') AND delivered_to NOT LIKE ?",
			c.RegisteredAt.Add(-r.catchUp()), "%"+list([]string{c.Consumer})+"%")
	if c.EventType != "*" {
		q = q.Where("type = ?", c.EventType)
	}
	res := q.Updates(map[string]any{"published_at": nil, "attempts": 0, "next_attempt_at": now})
	if res.Error != nil {
		return fmt.Errorf("events: catch up %s: %w", c.Consumer, res.Error)
	}
	if err := conn.Model(&consumerRow{}).
		Where("consumer = ? AND event_type = ? AND registered_at = ? AND caught_up_at IS NULL", c.Consumer, c.EventType, c.RegisteredAt).
		Update("caught_up_at", now).Error; err != nil {
		return fmt.Errorf("events: catch up %s: %w", c.Consumer, err)
	}
	if res.RowsAffected > 0 {
		r.log.Info("events re-opened for a new consumer",
			zap.String("consumer", c.Consumer), zap.String("type", c.EventType), zap.Int64("events", res.RowsAffected))
		r.Notify()
	}
	return nil
}

// localWork is the claim's condition for rows a local consumer wants and has not
// handled, with its arguments: one term per consumer.
func localWork(subs []subscription) (string, []any) {
	var terms []string
	var args []any
	for _, sub := range subs {
		pattern := "%" + list([]string{sub.consumer}) + "%"
		if slices.Contains(sub.types, "*") {
			terms = append(terms, "o.delivered_to NOT LIKE ?")
			args = append(args, pattern)
			continue
		}
		terms = append(terms, "(o.type IN (?"+strings.Repeat(", ?", len(sub.types)-1)+") AND o.delivered_to NOT LIKE ?)")
		for _, t := range sub.types {
			args = append(args, t)
		}
		args = append(args, pattern)
	}
	if len(terms) == 0 {
		return "1 = 0", nil
	}
	return "(" + strings.Join(terms, " OR ") + ")", args
}

// waitingConsumer is a subquery naming a live registered consumer that wants the
// event of the row alias and is not in list (an SQL expression); its one argument is
// the liveness cutoff (liveSince).
func waitingConsumer(alias, list string) string {
	return `SELECT 1 FROM event_consumers c WHERE c.seen_at >= ? AND (c.event_type = ` + alias + `.type OR c.event_type = '*')
    AND (` + list + `) NOT LIKE '%,' || c.consumer || ',%'`
}

// list renders consumer names as stored: ",a,b," ("" for none), so that a name is
// found with LIKE '%,name,%' in any concatenation of lists.
func list(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return "," + strings.Join(names, ",") + ","
}

// listed reports whether a stored list holds the consumer.
func listed(stored, consumer string) bool { return strings.Contains(stored, ","+consumer+",") }
