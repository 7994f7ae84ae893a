// Package tags reads a resource's tag list the one way the modules accept it: trimmed,
// without empty tags or case-insensitive duplicates (the first spelling wins), within
// the shared limits. Each module words the problems in its own messages.
package tags

import (
	"strings"
	"unicode/utf8"
)

// The limits every module's tags share.
const (
	MaxCount  = 250 // distinct tags on one resource
	MaxLength = 255 // characters in one tag
)

// Problem is what is wrong with a tag list (a set of flags).
type Problem uint8

// Problems.
const (
	Comma   Problem = 1 << iota // a tag holds a comma (list filters are comma lists)
	TooLong                     // a tag is longer than MaxLength characters
	TooMany                     // more than MaxCount distinct tags
)

// Normalize trims the tags and drops empty ones and duplicates. It stops at the first
// tag with one of the problems in check (Comma, TooLong), returning all of that tag's,
// and reports TooMany after the last tag; the tags kept so far come back either way.
func Normalize(in []string, check Problem) ([]string, Problem) {
	out := make([]string, 0, len(in))
	seen := map[string]bool{}
	for _, t := range in {
		t = strings.TrimSpace(t)
		if t == "" {
			continue
		}
		var p Problem
		if strings.Contains(t, ",") {
			p |= Comma
		}
		if utf8.RuneCountInString(t) > MaxLength {
			p |= TooLong
		}
		if p &= check; p != 0 {
			return out, p
		}
		k := strings.ToLower(t)
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, t)
	}
	if len(out) > MaxCount {
		return out, TooMany
	}
	return out, 0
}
