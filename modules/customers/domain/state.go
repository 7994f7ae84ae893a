package domain

import (
	"slices"
	"time"
)

// State is a customer's account state.
type State string

// Customer states.
const (
	StateEnabled  State = "enabled"
	StateDisabled State = "disabled"
	StateInvited  State = "invited"
	StateDeclined State = "declined"
)

// States lists every state.
var States = []State{StateEnabled, StateDisabled, StateInvited, StateDeclined}

// Valid reports whether s is a known state.
func (s State) Valid() bool {
	return slices.Contains([]State{StateEnabled, StateDisabled, StateInvited, StateDeclined}, s)
}

// Trigger is the operation that asks for a state move.
type Trigger string

// Triggers.
const (
	// ViaUpdate is an admin setting `state` in PUT/PATCH /customers/{id}.
	ViaUpdate Trigger = "update"
	// ViaInvite is POST /customers/{id}/send_invite (or a create without password).
	ViaInvite Trigger = "invite"
	// ViaActivate is POST /customers/{id}/activate with a valid token and a password.
	ViaActivate Trigger = "activate"
)

// Move is one allowed state move.
type Move struct {
	From State
	To   State
	Via  Trigger
}

// Moves is the complete table of allowed moves (docs/decisions/0041). Anything else is
// INVALID_STATE_TRANSITION. Anonymization is not a move: it disables the account
// whatever its state, and an anonymized customer moves no more.
var Moves = []Move{
	{StateInvited, StateEnabled, ViaActivate}, // the invitee set a password
	{StateInvited, StateInvited, ViaInvite},   // re-send: new token, the old one dies
	{StateInvited, StateDeclined, ViaUpdate},  // the invitee declined
	{StateInvited, StateDisabled, ViaUpdate},  // invite withdrawn
	{StateDeclined, StateInvited, ViaInvite},  // invite again
	{StateDisabled, StateInvited, ViaInvite},  // invite a customer created without one
	{StateEnabled, StateDisabled, ViaUpdate},  // block the account
	{StateDisabled, StateEnabled, ViaUpdate},  // unblock (needs a password)
}

// CanMove reports whether the table allows from → to by the trigger.
func CanMove(from, to State, via Trigger) bool {
	for _, m := range Moves {
		if m.From == from && m.To == to && m.Via == via {
			return true
		}
	}
	return false
}

// MoveTo changes the state when the table allows it. Setting the current state through
// an update is a no-op (changed false). Enabling a disabled customer needs a password
// (one without must be invited), and an anonymized customer cannot move.
func (c *Customer) MoveTo(to State, via Trigger, now time.Time) (changed bool, err error) {
	if !to.Valid() {
		return false, ErrInvalidState
	}
	if via == ViaUpdate && to == c.State {
		return false, nil
	}
	if c.Anonymized() {
		return false, ErrInvalidStateTransition.WithMessage("Customer is anonymized; its state cannot change")
	}
	if !CanMove(c.State, to, via) {
		return false, ErrInvalidStateTransition.WithMessage("Cannot move a customer from %s to %s by %s", c.State, to, via)
	}
	if c.State == StateDisabled && to == StateEnabled && !c.HasPassword {
		return false, ErrInvalidStateTransition.WithMessage("Customer has no password; send an invite instead")
	}
	c.State = to
	c.UpdatedAt = now
	return true, nil
}
