package inventory_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gocommerce/commerce/modules/inventory/api"
	"github.com/gocommerce/commerce/modules/inventory/domain"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/jobs"
)

func TestReservations(t *testing.T) {
	forEngine(t, func(t *testing.T, s *stack) {
		p := s.stocked("Lamp", 2, 1, 5)
		v := p.variant(0)

		code, body := s.do("POST", "/api/v1/inventory/reserve", "writer", map[string]any{
			"product_id": p.ID, "location_id": defaultLoc, "order_id": "order-1001", "quantity": 3,
		})
		r := data(body)
		rid, _ := r["reservation_id"].(string)
		if code != 201 || !ids.Valid(rid) || r["product_id"] != p.ID || r["variant_id"] != v || r["location_id"] != defaultLoc ||
			r["order_id"] != "order-1001" || num(r["quantity"]) != 3 || r["status"] != "active" ||
			r["expires_at"] != "2026-11-22T10:30:00Z" || r["created_at"] != "2026-11-22T10:00:00Z" ||
			r["released_at"] != nil || r["reason"] != nil {
			t.Fatalf("reserve: %d %v", code, body)
		}
		if a, res, _ := s.level(v, defaultLoc); a != 2 || res != 3 {
			t.Fatalf("after reserve: available %d reserved %d", a, res)
		}
		if got, _ := s.catalog.total(v); got != 2 {
			t.Fatalf("catalog total %d, want 2", got)
		}
		reserved := s.Events(api.EventReserved)
		if len(reserved) != 1 || reserved[0].Data["reservation_id"] != rid || reserved[0].Data["status"] != "active" || reserved[0].AggregateID != rid {
			t.Fatalf("inventory.reserved events %v", reserved)
		}

		// not enough: 400 INSUFFICIENT_INVENTORY, nothing changes.
		code, body = s.do("POST", "/api/v1/inventory/reserve", "writer", map[string]any{
			"product_id": p.ID, "variant_id": v, "location_id": defaultLoc, "order_id": "order-1002", "quantity": 3,
		})
		if e, _ := body["error"].(map[string]any); code != 400 || errCode(body) != "INSUFFICIENT_INVENTORY" || num(e["status"]) != 400 {
			t.Fatalf("insufficient: %d %v", code, body)
		}
		for name, b := range map[string]map[string]any{
			"zero quantity":    {"product_id": p.ID, "location_id": defaultLoc, "order_id": "o", "quantity": 0},
			"negative":         {"product_id": p.ID, "location_id": defaultLoc, "order_id": "o", "quantity": -1},
			"no order":         {"product_id": p.ID, "location_id": defaultLoc, "quantity": 1},
			"no location":      {"product_id": p.ID, "order_id": "o", "quantity": 1},
			"unknown product":  {"product_id": ids.New(), "location_id": defaultLoc, "order_id": "o", "quantity": 1},
			"unknown location": {"product_id": p.ID, "location_id": ids.New(), "order_id": "o", "quantity": 1},
		} {
			code, body := s.do("POST", "/api/v1/inventory/reserve", "writer", b)
			want := map[string]any{
				"zero quantity": "INVALID_QUANTITY", "negative": "INVALID_QUANTITY", "no order": float64(400), "no location": float64(400),
				"unknown product": "PRODUCT_NOT_FOUND", "unknown location": "LOCATION_NOT_FOUND",
			}[name]
			if errCode(body) != want || (code != 400 && code != 404) {
				t.Errorf("reserve %s: %d %v", name, code, body)
			}
		}
		closed := s.location(map[string]any{"name": "Closed shop", "is_active": false})
		if code, body := s.do("POST", "/api/v1/inventory/reserve", "writer", map[string]any{"product_id": p.ID, "location_id": closed, "order_id": "o", "quantity": 1}); code != 400 || errCode(body) != "LOCATION_INACTIVE" {
			t.Fatalf("inactive location: %d %v", code, body)
		}
		// a location closed after stock was put there (the level exists): still refused
		shut := s.location(map[string]any{"name": "Shut shop"})
		lamp := s.catalog.add("Lamp", 0, domain.PolicyDeny, 1)
		s.set(lamp, 0, shut, 5)
		if err := s.db.Gorm().Exec("UPDATE inventory_locations SET is_active = ? WHERE id = ?", false, shut).Error; err != nil {
			t.Fatal(err)
		}
		if code, body := s.do("POST", "/api/v1/inventory/reserve", "writer", map[string]any{"product_id": lamp.ID, "variant_id": lamp.variant(0), "location_id": shut, "order_id": "o", "quantity": 1}); code != 400 || errCode(body) != "LOCATION_INACTIVE" {
			t.Fatalf("closed location with stock: %d %v", code, body)
		}
		if a, _, _ := s.level(lamp.variant(0), shut); a != 5 {
			t.Fatalf("closed location's stock %d, want 5 untouched", a)
		}
		if a, res, _ := s.level(v, defaultLoc); a != 2 || res != 3 || len(s.Payloads(api.EventReserved, "")) != 1 {
			t.Fatalf("after refusals: available %d reserved %d", a, res)
		}

		// release returns the stock; a second release is 409; an unknown one 404.
		s.clock.Advance(time.Minute)
		code, body = s.do("POST", "/api/v1/inventory/release", "writer", map[string]any{"reservation_id": rid, "reason": "order_cancelled"})
		if d := data(body); code != 200 || d["reservation_id"] != rid || d["status"] != "released" ||
			d["released_at"] != "2026-11-22T10:01:00Z" || d["reason"] != "order_cancelled" || len(d) != 4 {
			t.Fatalf("release: %d %v", code, body)
		}
		if a, res, _ := s.level(v, defaultLoc); a != 5 || res != 0 {
			t.Fatalf("after release: available %d reserved %d", a, res)
		}
		if got, _ := s.catalog.total(v); got != 5 {
			t.Fatalf("catalog total %d, want 5", got)
		}
		code, body = s.do("POST", "/api/v1/inventory/release", "writer", map[string]any{"reservation_id": rid, "reason": "manual_release"})
		if e, _ := body["error"].(map[string]any); code != 409 || errCode(body) != "RESERVATION_ALREADY_RELEASED" || e["category"] != "conflict" {
			t.Fatalf("second release: %d %v", code, body)
		}
		for _, id := range []string{ids.New(), "nope"} {
			if code, body := s.do("POST", "/api/v1/inventory/release", "writer", map[string]any{"reservation_id": id, "reason": "manual_release"}); code != 404 || errCode(body) != "RESERVATION_NOT_FOUND" {
				t.Fatalf("unknown reservation: %d %v", code, body)
			}
		}
		if code, body := s.do("POST", "/api/v1/inventory/release", "writer", map[string]any{"reservation_id": rid, "reason": "changed_mind"}); code != 400 || errCode(body) != float64(400) {
			t.Fatalf("bad reason: %d %v", code, body)
		}
		released := s.Payloads(api.EventReleased, "")
		if len(released) != 1 || released[0]["reason"] != "order_cancelled" || released[0]["status"] != "released" || released[0]["released_at"] != "2026-11-22T10:01:00Z" {
			t.Fatalf("inventory.released events %v", released)
		}

		// order_completed commits: reserved goes, available stays down, no movement.
		_, body = s.do("POST", "/api/v1/inventory/reserve", "writer", map[string]any{"product_id": p.ID, "location_id": defaultLoc, "order_id": "order-1003", "quantity": 4})
		rid2 := data(body)["reservation_id"].(string)
		before := len(s.movements(v))
		code, body = s.do("POST", "/api/v1/inventory/release", "writer", map[string]any{"reservation_id": rid2, "reason": "order_completed"})
		if code != 200 || data(body)["reason"] != "order_completed" {
			t.Fatalf("commit: %d %v", code, body)
		}
		if a, res, _ := s.level(v, defaultLoc); a != 1 || res != 0 || len(s.movements(v)) != before {
			t.Fatalf("after commit: available %d reserved %d, %d movements (had %d)", a, res, len(s.movements(v)), before)
		}

		// movements of the reservation cycle: out (reserved), in (order_cancelled), out (reserved).
		ms := s.movements(v)
		if len(ms) != 4 || ms[1].MovementType != "out" || ms[1].Reason != "reserved" || ms[1].Reference != "order-1001" ||
			ms[1].ReservationID == nil || *ms[1].ReservationID != rid || ms[2].MovementType != "in" || ms[2].Reason != "order_cancelled" ||
			ms[2].Quantity != 3 || ms[3].Quantity != -4 {
			t.Fatalf("movements %+v", ms)
		}
		s.checkLedger(v)

		// backorders: policy continue reserves past zero.
		bo := s.catalog.add("Preorder", 0, domain.PolicyContinue, 1)
		code, body = s.do("POST", "/api/v1/inventory/reserve", "writer", map[string]any{"product_id": bo.ID, "location_id": defaultLoc, "order_id": "o-9", "quantity": 2})
		if code != 201 {
			t.Fatalf("backorder reserve: %d %v", code, body)
		}
		if a, res, _ := s.level(bo.variant(0), defaultLoc); a != -2 || res != 2 {
			t.Fatalf("backorder level: %d %d", a, res)
		}
		if code, _ := s.do("POST", "/api/v1/inventory/release", "reader", map[string]any{"reservation_id": rid2, "reason": "manual_release"}); code != 403 {
			t.Fatalf("reader releasing: %d", code)
		}
	})
}

// fakeRegistry records what a module registers with the jobs port.
type fakeRegistry struct {
	handlers map[string]jobs.Handler
	every    map[string]time.Duration
}

func (r *fakeRegistry) Handle(taskType string, h jobs.Handler) { r.handlers[taskType] = h }
func (r *fakeRegistry) Every(taskType string, d time.Duration) { r.every[taskType] = d }

func TestReservationExpiry(t *testing.T) {
	forEngine(t, func(t *testing.T, s *stack) {
		ctx := context.Background()
		p := s.stocked("Lamp", 2, 1, 10)
		v := p.variant(0)
		early, err := s.svc.Reserve(ctx, api.ReserveCommand{ProductID: p.ID, OrderID: "o-1", Quantity: 2})
		if err != nil {
			t.Fatal(err)
		}
		s.clock.Advance(10 * time.Minute)
		late, err := s.svc.Reserve(ctx, api.ReserveCommand{ProductID: p.ID, OrderID: "o-2", Quantity: 3})
		if err != nil {
			t.Fatal(err)
		}
		short, err := s.svc.Reserve(ctx, api.ReserveCommand{ProductID: p.ID, OrderID: "o-3", Quantity: 1, TTL: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		if !early.ExpiresAt.Equal(t0.Add(30*time.Minute)) || !short.ExpiresAt.Equal(t0.Add(11*time.Minute)) {
			t.Fatalf("expires_at %v / %v", early.ExpiresAt, short.ExpiresAt)
		}

		reg := &fakeRegistry{handlers: map[string]jobs.Handler{}, every: map[string]time.Duration{}}
		s.module.RegisterJobs(reg)
		handle := reg.handlers["inventory:expire_reservations"]
		if handle == nil || reg.every["inventory:expire_reservations"] != time.Minute {
			t.Fatalf("jobs registered: %v %v", reg.handlers, reg.every)
		}

		// nothing is due yet
		if err := handle(ctx, nil); err != nil {
			t.Fatal(err)
		}
		if a, r, _ := s.level(v, defaultLoc); a != 4 || r != 6 {
			t.Fatalf("before expiry: %d %d", a, r)
		}
		// at exactly expires_at the short one goes
		s.clock.Advance(time.Minute)
		if n, err := s.svc.ExpireReservations(ctx); err != nil || n != 1 {
			t.Fatalf("ExpireReservations = %d, %v", n, err)
		}
		if a, r, _ := s.level(v, defaultLoc); a != 5 || r != 5 {
			t.Fatalf("after first expiry: %d %d", a, r)
		}
		// past the early one's expiry, through the job
		s.clock.Advance(20 * time.Minute)
		if err := handle(ctx, []byte("{}")); err != nil {
			t.Fatal(err)
		}
		if a, r, _ := s.level(v, defaultLoc); a != 7 || r != 3 {
			t.Fatalf("after second expiry: %d %d", a, r)
		}
		if _, err := s.svc.Release(ctx, early.ID, api.ReleaseManual); !errors.Is(err, api.ErrReservationAlreadyReleased) {
			t.Fatalf("expired reservation released again: %v", err)
		}
		s.clock.Advance(20 * time.Minute)
		if n, err := s.svc.ExpireReservations(ctx); err != nil || n != 1 {
			t.Fatalf("third sweep = %d, %v", n, err)
		}
		if n, err := s.svc.ExpireReservations(ctx); err != nil || n != 0 {
			t.Fatalf("idle sweep = %d, %v", n, err)
		}
		if a, r, _ := s.level(v, defaultLoc); a != 10 || r != 0 {
			t.Fatalf("all expired: %d %d", a, r)
		}
		released := s.Payloads(api.EventReleased, "")
		if len(released) != 3 {
			t.Fatalf("released events %d", len(released))
		}
		for _, e := range released {
			if e["reason"] != "order_expired" {
				t.Fatalf("released event %v", e)
			}
		}
		if released[2]["reservation_id"] != late.ID {
			t.Fatalf("last expired %v, want %s", released[2]["reservation_id"], late.ID)
		}
		s.checkLedger(v)
	})
}

// ReserveAll reserves every line or none; CommitAll commits the lines still active and
// leaves out one released meanwhile.
func TestReserveAllAndCommitAll(t *testing.T) {
	forEngine(t, func(t *testing.T, s *stack) {
		ctx := context.Background()
		lamp, desk := s.stocked("Lamp", 0, 1, 5), s.stocked("Desk", 0, 2, 5)
		s.set(desk, 1, defaultLoc, 5)
		line := func(p *fakeProduct, v string, q int) api.ReserveCommand {
			return api.ReserveCommand{ProductID: p.ID, VariantID: v, OrderID: "order-7", Quantity: q}
		}
		// The last line is short: nothing is reserved.
		_, err := s.svc.ReserveAll(ctx, []api.ReserveCommand{line(lamp, "", 2), line(desk, desk.variant(0), 1), line(desk, desk.variant(1), 6)})
		if !errors.Is(err, domain.ErrInsufficientInventory) {
			t.Fatalf("short line: %v", err)
		}
		for _, v := range []string{lamp.variant(0), desk.variant(0), desk.variant(1)} {
			if a, res, _ := s.level(v, defaultLoc); a != 5 || res != 0 {
				t.Fatalf("after refused batch %s: available %d reserved %d", v, a, res)
			}
		}
		rs, err := s.svc.ReserveAll(ctx, []api.ReserveCommand{line(lamp, "", 2), line(desk, desk.variant(0), 1), line(desk, desk.variant(1), 5)})
		if err != nil || len(rs) != 3 || rs[0].VariantID != lamp.variant(0) || rs[2].VariantID != desk.variant(1) || rs[2].Quantity != 5 {
			t.Fatalf("reserve all: %v %v", rs, err)
		}
		if a, res, _ := s.level(desk.variant(1), defaultLoc); a != 0 || res != 5 {
			t.Fatalf("after reserve: available %d reserved %d", a, res)
		}
		if got, _ := s.catalog.total(lamp.variant(0)); got != 3 {
			t.Fatalf("catalog total %d, want 3", got)
		}
		if n := len(s.Events(api.EventReserved)); n != 3 {
			t.Fatalf("inventory.reserved events %d", n)
		}
		// The desk's first line lapses (released) before the commit.
		if _, err := s.svc.Release(ctx, rs[1].ID, api.ReleaseOrderExpired); err != nil {
			t.Fatal(err)
		}
		done, err := s.svc.CommitAll(ctx, []string{rs[0].ID, rs[1].ID, rs[2].ID})
		if err != nil || len(done) != 2 || done[0].ID != rs[0].ID || done[1].ID != rs[2].ID || done[1].ReleaseReason != api.ReleaseOrderCompleted {
			t.Fatalf("commit all: %v %v", done, err)
		}
		want := map[string][2]int{lamp.variant(0): {3, 0}, desk.variant(0): {5, 0}, desk.variant(1): {0, 0}}
		for v, w := range want {
			if a, res, _ := s.level(v, defaultLoc); a != w[0] || res != w[1] {
				t.Errorf("after commit %s: available %d reserved %d, want %v", v, a, res, w)
			}
			s.checkLedger(v)
		}
		if again, err := s.svc.CommitAll(ctx, []string{rs[0].ID}); err != nil || len(again) != 0 {
			t.Errorf("commit again: %v %v", again, err)
		}
		if _, err := s.svc.CommitAll(ctx, []string{rs[0].ID, ids.New()}); !errors.Is(err, domain.ErrReservationNotFound) {
			t.Errorf("unknown id: %v", err)
		}
	})
}
