// Package domain holds identity's entities and rules: credentials, staff users, API
// keys (generation, parsing, hashing), scopes, token claims, email and password
// policies. Plain Go: no framework imports, no tags.
package domain

import "time"

// Credential is a customer's login: the customer id and a bcrypt password hash.
type Credential struct {
	CustomerID   string
	Email        string // lower case
	PasswordHash string
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// RoleAdmin is the only staff role so far.
const RoleAdmin = "admin"

// StaffUser is a staff account (an admin).
type StaffUser struct {
	ID           string
	Email        string // lower case
	PasswordHash string
	Role         string
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// StaffScopes are the scopes a staff access token carries for a role.
func StaffScopes(role string) []string {
	switch role {
	case RoleAdmin:
		return []string{"admin"}
	}
	return nil
}
