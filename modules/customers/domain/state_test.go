package domain

import (
	"errors"
	"fmt"
	"testing"
)

// TestStateMoves checks every (from, to, trigger) combination against the table:
// exactly the listed moves are allowed.
func TestStateMoves(t *testing.T) {
	t.Parallel()
	allowed := map[string]bool{
		"invited>enabled/activate": true,
		"invited>invited/invite":   true,
		"invited>declined/update":  true,
		"invited>disabled/update":  true,
		"declined>invited/invite":  true,
		"disabled>invited/invite":  true,
		"enabled>disabled/update":  true,
		"disabled>enabled/update":  true,
	}
	n := 0
	for _, from := range States {
		for _, to := range States {
			for _, via := range []Trigger{ViaUpdate, ViaInvite, ViaActivate} {
				key := fmt.Sprintf("%s>%s/%s", from, to, via)
				if got := CanMove(from, to, via); got != allowed[key] {
					t.Errorf("CanMove(%s) = %v", key, got)
				}
				c := &Customer{State: from, HasPassword: true}
				changed, err := c.MoveTo(to, via, now)
				switch {
				case via == ViaUpdate && from == to:
					if err != nil || changed {
						t.Errorf("%s: same state by update must be a no-op: %v %v", key, changed, err)
					}
				case allowed[key]:
					n++
					if err != nil || !changed || c.State != to || !c.UpdatedAt.Equal(now) {
						t.Errorf("%s: %v %v %+v", key, changed, err, c)
					}
				default:
					if !errors.Is(err, ErrInvalidStateTransition) || c.State != from {
						t.Errorf("%s: want INVALID_STATE_TRANSITION, got %v (state %s)", key, err, c.State)
					}
				}
			}
		}
	}
	if n != len(Moves) || len(Moves) != len(allowed) {
		t.Errorf("%d moves exercised, table has %d", n, len(Moves))
	}
}

func TestMoveGuards(t *testing.T) {
	t.Parallel()
	// Enabling a disabled customer without a password is refused: invite it instead.
	c := &Customer{State: StateDisabled}
	if _, err := c.MoveTo(StateEnabled, ViaUpdate, now); !errors.Is(err, ErrInvalidStateTransition) || c.State != StateDisabled {
		t.Fatalf("enable without password: %v", err)
	}
	// An anonymized customer does not move.
	c = &Customer{State: StateDisabled, HasPassword: true}
	c.Anonymize("x", now)
	if _, err := c.MoveTo(StateInvited, ViaInvite, now); !errors.Is(err, ErrInvalidStateTransition) {
		t.Fatalf("anonymized: %v", err)
	}
	if _, err := (&Customer{State: StateEnabled}).MoveTo("frozen", ViaUpdate, now); !errors.Is(err, ErrInvalidState) {
		t.Fatalf("unknown state: %v", err)
	}
}
