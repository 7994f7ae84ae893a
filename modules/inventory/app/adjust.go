package app

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gocommerce/commerce/modules/inventory/api"
	"github.com/gocommerce/commerce/modules/inventory/domain"
	"github.com/gocommerce/commerce/modules/inventory/ports"
	"github.com/gocommerce/commerce/platform/apperr"
)

// maxText bounds reason, reference and notes.
const maxText = 1000

// checkTexts adds a problem to fields for each text longer than maxText and answers the
// validation error of all the problems fields then holds (nil when there are none).
func checkTexts(fields map[string]string, texts map[string]string) error {
	for name, v := range texts {
		if utf8.RuneCountInString(v) > maxText {
			fields[name] = "must be at most 1000 characters"
		}
	}
	if len(fields) > 0 {
		return apperr.Validation(fields)
	}
	return nil
}

// Adjust changes a variant's available stock at a location by a signed amount and
// records the movement (its type from the reason and sign, MovementTypeFor).
func (s *Service) Adjust(ctx context.Context, cmd api.AdjustCommand) (api.Adjustment, error) {
	fields := map[string]string{}
	if cmd.Adjustment == 0 {
		fields["adjustment"] = "must not be zero"
	}
	return s.adjust(ctx, fields, string(domain.ReasonOther), "adjustment", changeInput{
		productID: cmd.ProductID, variantID: cmd.VariantID, locationID: locationOrDefault(cmd.LocationID),
		reason: cmd.Reason, notes: cmd.Notes, reference: cmd.Reference, actor: cmd.Actor,
		op: func(q domain.Quantities, p domain.Policy) (domain.Quantities, error) {
			return q.Adjust(cmd.Adjustment, p)
		},
	})
}

// Set makes a variant's available stock at a location equal to the quantity (a stock
// count) and records the difference as a movement, even when it is zero.
func (s *Service) Set(ctx context.Context, cmd api.SetCommand) (api.Adjustment, error) {
	return s.adjust(ctx, map[string]string{}, string(domain.ReasonCount), "quantity", changeInput{
		productID: cmd.ProductID, variantID: cmd.VariantID, locationID: locationOrDefault(cmd.LocationID),
		reason: cmd.Reason, notes: cmd.Notes, reference: cmd.Reference, actor: cmd.Actor,
		op: func(q domain.Quantities, p domain.Policy) (domain.Quantities, error) { return q.Set(cmd.Quantity, p) },
	})
}

// adjust checks an adjustment's texts (the reason trimmed, defaultReason when empty)
// into fields, which may already hold problems, and runs the change; a stock limit
// error names limitField.
func (s *Service) adjust(ctx context.Context, fields map[string]string, defaultReason, limitField string, in changeInput) (api.Adjustment, error) {
	in.reason = strings.TrimSpace(in.reason)
	if in.reason == "" {
		in.reason = defaultReason
	}
	if err := checkTexts(fields, map[string]string{"reason": in.reason, "notes": in.notes, "reference": in.reference}); err != nil {
		return api.Adjustment{}, err
	}
	out, err := s.change(ctx, in)
	return out, domain.StockLimitField(err, limitField)
}

type changeInput struct {
	productID, variantID, locationID string
	reason, notes, reference, actor  string
	op                               func(domain.Quantities, domain.Policy) (domain.Quantities, error)
}

// change is the shared body of adjust and set.
func (s *Service) change(ctx context.Context, in changeInput) (api.Adjustment, error) {
	var out api.Adjustment
	err := s.variantChange(ctx, in.productID, in.variantID, func(ctx context.Context, v ports.Variant, now time.Time) error {
		loc, err := s.location(ctx, in.locationID, false)
		if err != nil {
			return err
		}
		key := ports.LevelKey{ProductID: v.ProductID, VariantID: v.VariantID, LocationID: loc.ID}
		before, after, err := s.apply(ctx, levelChange{
			key:    key,
			op:     func(q domain.Quantities) (domain.Quantities, error) { return in.op(q, v.Policy) },
			guard:  ports.Guard{NonNegativeAvailable: !v.Policy.AllowsBackorder()},
			refuse: domain.ErrInventoryNegative,
		}, now)
		if err != nil {
			return err
		}
		delta := after.Available - before.Available
		m := &domain.Movement{
			ProductID: v.ProductID, ProductName: v.ProductName, VariantID: v.VariantID, LocationID: loc.ID,
			Type:           domain.MovementTypeFor(in.reason, delta),
			QuantityBefore: before.Available, QuantityAfter: after.Available,
			Reason: in.reason, Reference: in.reference, Notes: in.notes,
			Currency: v.Currency, CreatedBy: actorOr(in.actor), CreatedAt: now,
		}
		if err := s.record(ctx, m); err != nil {
			return err
		}
		out = api.Adjustment{
			MovementID: m.ID, ProductID: m.ProductID, VariantID: m.VariantID, LocationID: m.LocationID,
			MovementType: string(m.Type), Adjustment: m.Quantity,
			QuantityBefore: m.QuantityBefore, QuantityAfter: m.QuantityAfter,
			Reason: m.Reason, Notes: m.Notes, Reference: m.Reference, AdjustedBy: m.CreatedBy, CreatedAt: m.CreatedAt,
		}
		return s.publish(ctx, api.EventAdjusted, v.ProductID, out)
	})
	if err != nil {
		return api.Adjustment{}, err
	}
	return out, nil
}
