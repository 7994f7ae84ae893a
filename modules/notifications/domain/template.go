package domain

import (
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/cbroglie/mustache"
)

// Template is a message with {{ name }} placeholders. System templates (the built-in
// ones, seeded by migration) can be edited but not deleted.
type Template struct {
	ID        string
	Name      string
	Channel   string
	Category  string
	Subject   string
	Body      string
	HTMLBody  string
	Variables []string
	IsSystem  bool
	CreatedAt time.Time
	UpdatedAt time.Time
}

// HasHTML reports an HTML body.
func (t *Template) HasHTML() bool { return t.HTMLBody != "" }

// Template categories.
const (
	CategoryTransactional = "transactional"
	CategoryMarketing     = "marketing"
	CategorySystem        = "system"
)

// Categories lists every category.
var Categories = []string{CategoryTransactional, CategoryMarketing, CategorySystem}

var (
	templateIDRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_.-]{0,99}$`)
	variableRE   = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.]{0,63}$`)
)

// TemplateInput is a template write: create (every field), PUT (present fields).
type TemplateInput struct {
	ID, Name, Channel, Category, Subject, Body, HTMLBody *string
	Variables                                            *[]string
}

// Apply checks in and applies it to t (create: every required field present).
func (t *Template) Apply(in TemplateInput, create bool) error {
	bad := Problems{}
	next := *t
	if create {
		switch {
		case in.ID == nil || strings.TrimSpace(*in.ID) == "":
			bad["id"] = "is required"
		case !templateIDRE.MatchString(*in.ID):
			bad["id"] = "must be 1 to 100 lower-case letters, digits, '_', '-' or '.'"
		default:
			next.ID = *in.ID
		}
		switch {
		case in.Channel == nil || *in.Channel == "":
			bad["channel"] = "is required"
		case !Valid(Channels, *in.Channel):
			bad["channel"] = "must be one of: " + strings.Join(Channels, ", ")
		default:
			next.Channel = *in.Channel
		}
		for f, v := range map[string]bool{"name": in.Name == nil, "body": in.Body == nil, "variables": in.Variables == nil} {
			if v {
				bad[f] = "is required"
			}
		}
	}
	if in.Category != nil {
		if !Valid(Categories, *in.Category) {
			bad["category"] = "must be one of: " + strings.Join(Categories, ", ")
		} else {
			next.Category = *in.Category
		}
	}
	if in.Name != nil {
		if n := strings.TrimSpace(*in.Name); n == "" || len(n) > 255 {
			bad["name"] = "must be 1 to 255 characters"
		} else {
			next.Name = n
		}
	}
	text := func(field string, v *string, dst *string, max int) {
		if v == nil {
			return
		}
		if len(*v) > max {
			bad[field] = "is too long"
			return
		}
		t, err := parse(*v, true)
		if err != nil {
			bad[field] = "does not parse: " + err.Error()
			return
		}
		if hasPartial(t.Tags()) {
			bad[field] = "must not use partials ({{> name}})"
			return
		}
		*dst = *v
	}
	text("subject", in.Subject, &next.Subject, MaxSubject)
	text("body", in.Body, &next.Body, MaxBody)
	text("html_body", in.HTMLBody, &next.HTMLBody, MaxBody)
	if in.Body != nil && strings.TrimSpace(*in.Body) == "" {
		bad["body"] = "must not be empty"
	}
	if in.Variables != nil {
		vars := []string{}
		for _, v := range *in.Variables {
			if !variableRE.MatchString(v) {
				bad["variables"] = "must be names of letters, digits, '_' and '.'"
				break
			}
			if !slices.Contains(vars, v) {
				vars = append(vars, v)
			}
		}
		next.Variables = vars
	}
	if next.Channel == ChannelEmail && strings.TrimSpace(next.Subject) == "" && bad["channel"] == "" {
		bad["subject"] = "is required for email"
	}
	if err := bad.Err(); err != nil {
		return err
	}
	if next.Category == "" {
		next.Category = CategoryTransactional
	}
	*t = next
	return nil
}

// Rendered is a rendered message.
type Rendered struct {
	Subject, Body, HTMLBody string
	// Missing names the placeholders the variables did not give (rendered empty).
	Missing []string
}

// Compiled is a parsed message template (subject, body, html_body), rendered many
// times (a bulk send parses once).
type Compiled struct {
	subject, body, html *mustache.Template
	names               [3][]mustache.Tag
}

// Compile parses subject and body as plain text and htmlBody with HTML escaping.
func Compile(subject, body, htmlBody string) (*Compiled, error) {
	c := &Compiled{}
	for i, src := range []string{subject, body, htmlBody} {
		if src == "" {
			continue
		}
		t, err := parse(src, i == 2)
		if err != nil {
			return nil, ErrInvalidTemplate.WithCause(err)
		}
		c.names[i] = t.Tags()
		switch i {
		case 0:
			c.subject = t
		case 1:
			c.body = t
		default:
			c.html = t
		}
	}
	return c, nil
}

// Render fills the placeholders with vars (nested objects reach {{ order.number }};
// sections iterate lists). Subject and body are plain text; every value in the HTML
// body is HTML-escaped (unless the template author wrote {{{ raw }}}). Missing
// placeholders render empty and are reported; partials render nothing.
func (c *Compiled) Render(vars map[string]any) (Rendered, error) {
	var out Rendered
	missing := map[string]bool{}
	dst := []*string{&out.Subject, &out.Body, &out.HTMLBody}
	for i, t := range []*mustache.Template{c.subject, c.body, c.html} {
		if t == nil {
			continue
		}
		collectMissing(c.names[i], vars, missing)
		s, err := t.Render(vars)
		if err != nil {
			return out, ErrInvalidTemplate.WithCause(err)
		}
		*dst[i] = s
	}
	out.Missing = make([]string, 0, len(missing))
	for k := range missing {
		out.Missing = append(out.Missing, k)
	}
	slices.Sort(out.Missing)
	return out, nil
}

// Render compiles and renders once.
func Render(subject, body, htmlBody string, vars map[string]any) (Rendered, error) {
	c, err := Compile(subject, body, htmlBody)
	if err != nil {
		return Rendered{}, err
	}
	return c.Render(vars)
}

// Placeholders lists the variable names a template text uses.
func Placeholders(texts ...string) []string {
	seen := map[string]bool{}
	for _, s := range texts {
		t, err := parse(s, true)
		if err != nil {
			continue
		}
		collectMissing(t.Tags(), nil, seen)
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func collectMissing(tags []mustache.Tag, vars map[string]any, missing map[string]bool) {
	for _, tag := range tags {
		switch tag.Type() {
		case mustache.Variable:
			if !has(vars, tag.Name()) {
				missing[tag.Name()] = true
			}
		case mustache.Section, mustache.InvertedSection, mustache.Partial, mustache.Invalid:
			// A section's own name is a condition (absent means "skip"); the
			// names inside resolve against its items, which preview cannot know.
			continue
		}
	}
}

// has looks a dotted name up in vars.
func has(vars map[string]any, name string) bool {
	if name == "." {
		return true
	}
	var cur any = vars
	for _, part := range strings.Split(name, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return false
		}
		if cur, ok = m[part]; !ok {
			return false
		}
	}
	return true
}

// noPartials answers every partial with nothing: templates never read files.
var noPartials = &mustache.StaticProvider{Partials: map[string]string{}}

// parse reads a template text; html escapes values, text keeps them as they are.
func parse(src string, html bool) (*mustache.Template, error) {
	return mustache.ParseStringPartialsRaw(src, noPartials, !html)
}

func hasPartial(tags []mustache.Tag) bool {
	for _, t := range tags {
		switch t.Type() {
		case mustache.Partial:
			return true
		case mustache.Section, mustache.InvertedSection:
			if hasPartial(t.Tags()) {
				return true
			}
		case mustache.Variable, mustache.Invalid:
		}
	}
	return false
}
