package domain

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// MaxSlugLength is the longest slug.
const MaxSlugLength = 255

// maxGeneratedSlug leaves room for a "-N" suffix.
const maxGeneratedSlug = 200

var slugPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// ValidSlug reports a URL-friendly slug: lower-case ASCII letters and digits in groups
// joined by single hyphens, at most 255 characters.
func ValidSlug(s string) bool { return len(s) <= MaxSlugLength && slugPattern.MatchString(s) }

// checkSlug is the check of a slug field, its problem showing example.
func checkSlug(example string) func(string) (string, string) {
	return func(s string) (string, string) {
		if !ValidSlug(s) {
			return s, "must be lower-case letters, digits and single hyphens (e.g. \"" + example + "\"), at most 255 characters"
		}
		return s, ""
	}
}

// Slugify derives a slug from a title: accents are dropped ("Crème" → "creme"), every
// run of other characters becomes one hyphen. fallback is used when nothing is left
// (e.g. a title in a non-Latin script).
func Slugify(title, fallback string) string {
	var b strings.Builder
	dash := false
	for _, r := range norm.NFKD.String(strings.ToLower(title)) {
		switch {
		case unicode.Is(unicode.Mn, r):
			continue
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		case r == 'ß':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteString("ss")
		default:
			dash = true
		}
		if b.Len() >= maxGeneratedSlug {
			break
		}
	}
	s := strings.Trim(b.String(), "-")
	if len(s) > maxGeneratedSlug {
		s = strings.TrimRight(s[:maxGeneratedSlug], "-")
	}
	if s == "" {
		return fallback
	}
	return s
}

// UniqueSlug returns base when it is free, else base-2, base-3 ... the first not in
// taken (the slugs already in use that start with base).
func UniqueSlug(base string, taken []string) string {
	used := make(map[string]bool, len(taken))
	for _, t := range taken {
		used[t] = true
	}
	if !used[base] {
		return base
	}
	for n := 2; ; n++ {
		s := base + "-" + strconv.Itoa(n)
		if !used[s] {
			return s
		}
	}
}
