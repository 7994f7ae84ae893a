package app

import (
	"fmt"

	"golang.org/x/crypto/bcrypt"
)

// hashPassword hashes a password with bcrypt at the configured cost.
func hashPassword(password string, cost int) (string, error) {
	h, err := bcrypt.GenerateFromPassword([]byte(password), cost)
	if err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	return string(h), nil
}

// passwordMatches compares a password with a bcrypt hash.
func passwordMatches(hash, password string) bool {
	return bcrypt.CompareHashAndPassword([]byte(hash), []byte(password)) == nil
}
