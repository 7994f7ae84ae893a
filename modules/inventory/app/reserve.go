package app

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gocommerce/commerce/modules/inventory/api"
	"github.com/gocommerce/commerce/modules/inventory/domain"
	"github.com/gocommerce/commerce/modules/inventory/ports"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/ids"
)

// Reserve moves stock from available to reserved for an order (ReserveAll of one).
func (s *Service) Reserve(ctx context.Context, cmd api.ReserveCommand) (api.Reservation, error) {
	out, err := s.ReserveAll(ctx, []api.ReserveCommand{cmd})
	if err != nil {
		return api.Reservation{}, err
	}
	return out[0], nil
}

// ReserveAll moves stock from available to reserved for every command, in one
// transaction: all or none. Each level's database update is conditional on available
// >= quantity (unless the variant's policy is continue), so concurrent reservations can
// never oversell, on either engine. The products are locked in the commands' order
// (one statement), the levels read in one statement, the reservations and movements
// inserted in one statement each. The variants' totals are reported to the catalog
// after the transaction commits, off the caller's path (docs/decisions/0229): the
// catalog's inventory_quantity follows within a moment.
func (s *Service) ReserveAll(ctx context.Context, cmds []api.ReserveCommand) ([]api.Reservation, error) {
	for _, cmd := range cmds {
		if err := validReserve(cmd); err != nil {
			return nil, err
		}
	}
	out := make([]api.Reservation, 0, len(cmds))
	err := s.tx.InTx(ctx, func(ctx context.Context) error {
		vs, err := s.variants(ctx, cmds)
		if err != nil {
			return err
		}
		now := s.clock.Now()
		if err := s.repos.Levels.UpsertProducts(ctx, productInfos(vs), now); err != nil {
			return err
		}
		keys, err := s.reserveLevels(ctx, cmds, vs)
		if err != nil {
			return err
		}
		levels, err := s.levelsAt(ctx, keys, now)
		if err != nil {
			return err
		}
		rs, ms := make([]*domain.Reservation, len(cmds)), make([]*domain.Movement, len(cmds))
		deltas := make([]ports.LevelDelta, len(cmds))
		for i, cmd := range cmds {
			v, before := vs[i], levels[keys[i]]
			after, err := before.Reserve(cmd.Quantity, v.Policy)
			if err != nil {
				return err
			}
			deltas[i] = ports.LevelDelta{Key: keys[i], Delta: after.Minus(before), Guard: ports.Guard{NonNegativeAvailable: !v.Policy.AllowsBackorder()}}
			levels[keys[i]] = after
			ttl := s.settings.ReservationTimeout
			if cmd.TTL > 0 {
				ttl = cmd.TTL
			}
			orderID := strings.TrimSpace(cmd.OrderID)
			rs[i] = &domain.Reservation{
				ID: s.newID(), ProductID: v.ProductID, VariantID: v.VariantID, LocationID: keys[i].LocationID, OrderID: orderID,
				Quantity: cmd.Quantity, Status: domain.ReservationActive, ExpiresAt: now.Add(ttl), CreatedAt: now,
			}
			ms[i] = &domain.Movement{
				ID: s.newID(), ProductID: v.ProductID, ProductName: v.ProductName, VariantID: v.VariantID, LocationID: keys[i].LocationID,
				Type: domain.MovementOut, Quantity: after.Available - before.Available, QuantityBefore: before.Available, QuantityAfter: after.Available,
				Reason: domain.ReasonReserved, Reference: orderID, ReservationID: rs[i].ID,
				Currency: v.Currency, CreatedBy: "system", CreatedAt: now,
			}
		}
		// One guarded update for every level: a concurrent reservation that took the
		// stock since the read makes it refuse them all. It goes out with the
		// transaction's next statement (decision 0240).
		if err := s.repos.Levels.ApplyAllLater(ctx, deltas, now, domain.ErrInsufficientInventory); err != nil {
			return err
		}
		if err := s.repos.Reservations.Create(ctx, rs...); err != nil {
			return err
		}
		if err := s.repos.Movements.Add(ctx, ms...); err != nil {
			return err
		}
		for _, r := range rs {
			out = append(out, toReservation(r))
			if err := s.publish(ctx, api.EventReserved, r.ID, out[len(out)-1]); err != nil {
				return err
			}
		}
		s.syncLater(ctx, vs)
		return nil
	})
	if err != nil {
		return nil, domain.StockLimitField(err, "quantity")
	}
	return out, nil
}

// reserveLevels is the level each command reserves at: its variant at its location
// (the default location when none is given).
func (s *Service) reserveLevels(ctx context.Context, cmds []api.ReserveCommand, vs []ports.Variant) ([]ports.LevelKey, error) {
	keys := make([]ports.LevelKey, len(cmds))
	for i, cmd := range cmds {
		id := locationOrDefault(cmd.LocationID)
		if !ids.Valid(id) {
			return nil, domain.ErrLocationNotFound
		}
		keys[i] = ports.LevelKey{ProductID: vs[i].ProductID, VariantID: vs[i].VariantID, LocationID: id}
	}
	return keys, nil
}

// levelsAt reads the levels' quantities with their locations in one statement, and
// wants every location active (LOCATION_NOT_FOUND, LOCATION_INACTIVE). A key whose
// level was not found reads its location (the key then takes the location's stored
// id), and its level is created at zero once the location is known to be active.
func (s *Service) levelsAt(ctx context.Context, keys []ports.LevelKey, now time.Time) (map[ports.LevelKey]domain.Quantities, error) {
	levels, active, err := s.repos.Levels.FindAllAt(ctx, keys)
	if err != nil {
		return nil, err
	}
	stored := map[string]string{} // a location id as given → as stored
	for i, k := range keys {
		on, known := active[k.LocationID]
		if !known {
			id, read := stored[k.LocationID]
			if !read {
				loc, err := s.location(ctx, k.LocationID, true)
				if err != nil {
					return nil, err
				}
				id, stored[k.LocationID] = loc.ID, loc.ID
			}
			keys[i].LocationID, on = id, true
		}
		if !on {
			return nil, domain.ErrLocationInactive
		}
	}
	for _, k := range keys {
		if _, ok := levels[k]; ok {
			continue
		}
		q, err := s.repos.Levels.Ensure(ctx, k, now)
		if err != nil {
			return nil, err
		}
		levels[k] = q
	}
	return levels, nil
}

// validReserve checks a reservation command before any read.
func validReserve(cmd api.ReserveCommand) error {
	orderID := strings.TrimSpace(cmd.OrderID)
	if orderID == "" {
		return apperr.Validation(map[string]string{"order_id": "is required"})
	} else if utf8.RuneCountInString(orderID) > 255 {
		return apperr.Validation(map[string]string{"order_id": "must be at most 255 characters"})
	}
	if cmd.Quantity <= 0 {
		return domain.ErrInvalidQuantity
	}
	if !ids.Valid(cmd.ProductID) {
		return domain.ErrProductNotFound
	}
	if cmd.VariantID != "" && !ids.Valid(cmd.VariantID) {
		return domain.ErrVariantNotFound
	}
	return nil
}

// variants resolves each command's variant: from the facts the commands carry when
// they all do, else from the catalog.
func (s *Service) variants(ctx context.Context, cmds []api.ReserveCommand) ([]ports.Variant, error) {
	known := make([]ports.Variant, 0, len(cmds))
	for _, cmd := range cmds {
		f := cmd.Variant
		if f == nil || cmd.VariantID == "" {
			break
		}
		known = append(known, ports.Variant{ProductID: cmd.ProductID, ProductName: f.ProductName, LowStockThreshold: f.LowStockThreshold,
			Currency: f.Currency, VariantID: cmd.VariantID, Title: f.Title, SKU: f.SKU, Policy: domain.Policy(f.Policy), IsDefault: f.IsDefault})
	}
	if len(known) == len(cmds) {
		return known, nil
	}
	refs := make([]ports.VariantRef, len(cmds))
	for i, cmd := range cmds {
		refs[i] = ports.VariantRef{ProductID: cmd.ProductID, VariantID: cmd.VariantID}
	}
	return s.catalog.GetVariants(ctx, refs)
}

// productInfos lists the variants' products once each, by product id: their records
// are upserted (and so locked) in that order, as LockProducts locks them.
func productInfos(vs []ports.Variant) []ports.ProductInfo {
	out := make([]ports.ProductInfo, 0, len(vs))
	seen := map[string]bool{}
	for _, v := range vs {
		if !seen[v.ProductID] {
			seen[v.ProductID] = true
			out = append(out, ports.ProductInfo{ID: v.ProductID, Name: v.ProductName, LowStockThreshold: v.LowStockThreshold})
		}
	}
	slices.SortFunc(out, func(a, b ports.ProductInfo) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// Release ends an active reservation: order_completed commits the stock (reserved
// goes down, available stays down); any other reason returns it to available with an
// "in" movement. A reservation is released at most once (conditional update on its
// status), whoever races: ErrReservationAlreadyReleased for the loser.
func (s *Service) Release(ctx context.Context, reservationID, reason string) (api.Reservation, error) {
	rr := domain.ReleaseReason(strings.TrimSpace(reason))
	if !rr.Valid() {
		return api.Reservation{}, apperr.Validation(map[string]string{"reason": "must be one of: order_cancelled, order_expired, manual_release, order_completed"})
	}
	if !ids.Valid(reservationID) {
		return api.Reservation{}, domain.ErrReservationNotFound
	}
	var out api.Reservation
	err := s.tx.InTx(ctx, func(ctx context.Context) error {
		r, err := s.release(ctx, reservationID, rr, true)
		if err != nil {
			return err
		}
		out = toReservation(r)
		return nil
	})
	if err != nil {
		return api.Reservation{}, err
	}
	return out, nil
}

// Commit releases a reservation with order_completed: the stock leaves for good.
func (s *Service) Commit(ctx context.Context, reservationID string) (api.Reservation, error) {
	return s.Release(ctx, reservationID, api.ReleaseOrderCompleted)
}

// CommitAll commits the reservations among ids that are still active, in one
// transaction and three statements whatever their number: the products are locked (in
// product id order, one statement that finds them from the reservations), the active
// reservations released in one conditional update that returns them, and their
// reserved stock taken out of the levels in one guarded update (reserved stays
// non-negative). A reservation no longer active is left out of the result (a lapsed
// hold); an unknown id is ErrReservationNotFound.
func (s *Service) CommitAll(ctx context.Context, reservationIDs []string) ([]api.Reservation, error) {
	for _, id := range reservationIDs {
		if !ids.Valid(id) {
			return nil, domain.ErrReservationNotFound
		}
	}
	unique := slices.Compact(slices.Sorted(slices.Values(reservationIDs)))
	out := []api.Reservation{}
	err := s.tx.InTx(ctx, func(ctx context.Context) error {
		if err := s.repos.Levels.LockProductsOf(ctx, unique); err != nil {
			return err
		}
		now := s.clock.Now()
		released, err := s.repos.Reservations.ReleaseActive(ctx, unique, domain.ReleaseOrderCompleted, now)
		if err != nil {
			return err
		}
		if len(released) < len(unique) { // lapsed, or unknown
			rs, err := s.repos.Reservations.GetAll(ctx, unique)
			if err != nil {
				return err
			}
			if len(rs) != len(unique) {
				return domain.ErrReservationNotFound
			}
		}
		byID := make(map[string]*domain.Reservation, len(released))
		for _, r := range released {
			byID[r.ID] = r
		}
		deltas := make([]ports.LevelDelta, 0, len(released))
		for _, id := range reservationIDs {
			r, ok := byID[id]
			if !ok {
				continue
			}
			delete(byID, id) // an id given twice is committed once
			// Committed stock leaves reserved (available is already down); the guarded
			// update keeps reserved non-negative.
			deltas = append(deltas, ports.LevelDelta{Key: ports.LevelKey{ProductID: r.ProductID, VariantID: r.VariantID, LocationID: r.LocationID},
				Delta: domain.Quantities{Reserved: -r.Quantity}})
			out = append(out, toReservation(r))
			if err := s.publish(ctx, api.EventReleased, r.ID, out[len(out)-1]); err != nil {
				return err
			}
		}
		// Refused when a level is lower than its reservations, or gone. It goes out
		// with the transaction's next statement (decision 0240).
		if err := s.repos.Levels.ApplyAllLater(ctx, deltas, now, apperr.New(apperr.Internal, "", "reserved stock is lower than the reservations")); err != nil {
			return err
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ReleaseOrder releases every active reservation of an order with the reason.
func (s *Service) ReleaseOrder(ctx context.Context, orderID, reason string) ([]api.Reservation, error) {
	rr := domain.ReleaseReason(strings.TrimSpace(reason))
	if !rr.Valid() {
		return nil, apperr.Validation(map[string]string{"reason": "must be one of: order_cancelled, order_expired, manual_release, order_completed"})
	}
	out := []api.Reservation{}
	err := s.tx.InTx(ctx, func(ctx context.Context) error {
		idList, err := s.repos.Reservations.ActiveIDs(ctx, ports.ReservationScope{OrderID: orderID})
		if err != nil {
			return err
		}
		for _, id := range idList {
			r, err := s.release(ctx, id, rr, true)
			if err != nil {
				return err
			}
			out = append(out, toReservation(r))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// release runs inside a transaction. With restock false (the product or variant was
// deleted) only the reservation is closed.
func (s *Service) release(ctx context.Context, id string, reason domain.ReleaseReason, restock bool) (*domain.Reservation, error) {
	r, err := s.repos.Reservations.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if r.Status != domain.ReservationActive {
		return nil, domain.ErrReservationAlreadyReleased
	}
	now := s.clock.Now()
	if _, err := s.repos.Levels.LockProduct(ctx, r.ProductID, now); err != nil {
		return nil, err
	}
	ok, err := s.repos.Reservations.MarkReleased(ctx, r.ID, reason, now)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, domain.ErrReservationAlreadyReleased
	}
	r.Status, r.ReleasedAt, r.ReleaseReason = domain.ReservationReleased, &now, reason
	key := ports.LevelKey{ProductID: r.ProductID, VariantID: r.VariantID, LocationID: r.LocationID}
	current, exists, err := s.repos.Levels.Find(ctx, key)
	if err != nil {
		return nil, err
	}
	if restock && exists {
		before, after, err := s.apply(ctx, levelChange{
			key: key, known: &current,
			op: func(q domain.Quantities) (domain.Quantities, error) { return q.Release(r.Quantity, reason.Commits()) },
		}, now)
		if err != nil {
			return nil, err
		}
		if !reason.Commits() {
			if err := s.record(ctx, &domain.Movement{
				ProductID: r.ProductID, VariantID: r.VariantID, LocationID: r.LocationID,
				Type: domain.MovementIn, QuantityBefore: before.Available, QuantityAfter: after.Available,
				Reason: string(reason), Reference: r.OrderID, ReservationID: r.ID,
				CreatedBy: "system", CreatedAt: now,
			}); err != nil {
				return nil, err
			}
			if err := s.reportTotals(ctx, r.ProductID, r.VariantID); err != nil {
				return nil, err
			}
		}
	}
	if err := s.publish(ctx, api.EventReleased, r.ID, toReservation(r)); err != nil {
		return nil, err
	}
	return r, nil
}

// ExpireReservations releases every active reservation whose expires_at has passed
// (reason order_expired), returning the stock, in batches, one transaction each. It
// returns how many it released. The periodic job inventory:expire_reservations calls it.
func (s *Service) ExpireReservations(ctx context.Context) (int, error) {
	const batch = 100
	released := 0
	for {
		due, err := s.repos.Reservations.Due(ctx, s.clock.Now(), batch)
		if err != nil {
			return released, err
		}
		for _, id := range due {
			err := s.tx.InTx(ctx, func(ctx context.Context) error {
				_, err := s.release(ctx, id, domain.ReleaseOrderExpired, true)
				return err
			})
			switch {
			case err == nil:
				released++
			case errors.Is(err, domain.ErrReservationAlreadyReleased):
				// released meanwhile by someone else
			default:
				return released, err
			}
		}
		if len(due) < batch {
			return released, nil
		}
	}
}

func toReservation(r *domain.Reservation) api.Reservation {
	return api.Reservation{
		ID: r.ID, ProductID: r.ProductID, VariantID: r.VariantID, LocationID: r.LocationID, OrderID: r.OrderID,
		Quantity: r.Quantity, Status: string(r.Status), ExpiresAt: r.ExpiresAt.UTC(), CreatedAt: r.CreatedAt.UTC(),
		ReleasedAt: r.ReleasedAt, ReleaseReason: string(r.ReleaseReason),
	}
}
