package domain

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/money"
)

// SegmentID identifies a segment (a UUID).
type SegmentID string

// Segment is a saved customer query: customers matching every condition belong to it.
type Segment struct {
	ID         SegmentID
	Name       string
	Query      map[string]any // as given (canonical JSON form), shown back to clients
	Conditions []Condition
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// MaxSegmentNameLength and MaxConditions bound a segment.
const (
	MaxSegmentNameLength = 255
	MaxConditions        = 20
	MaxInValues          = 100
)

// Op is a condition operator.
type Op string

// Operators.
const (
	OpGte      Op = "gte"
	OpLte      Op = "lte"
	OpEq       Op = "eq"
	OpIn       Op = "in"
	OpContains Op = "contains"
)

// FieldKind is the type of a segment field.
type FieldKind int

// Field kinds.
const (
	KindInt FieldKind = iota
	KindMoney
	KindBool
	KindTime
	KindText  // case-insensitive text
	KindState // a customer state
	KindTags  // the customer's tags
	KindUpper // an upper-case code (currency)
	KindLower // a lower-case code (language)
)

// FieldSpec says what a segment field accepts.
type FieldSpec struct {
	Kind FieldKind
	Ops  []Op
}

// SegmentFields is the whitelist of fields a segment query may use and their
// operators (docs/decisions/0045). Anything else is a validation error.
var SegmentFields = map[string]FieldSpec{
	"orders_count":        {KindInt, []Op{OpGte, OpLte, OpEq, OpIn}},
	"total_spent":         {KindMoney, []Op{OpGte, OpLte, OpEq}},
	"accepts_marketing":   {KindBool, []Op{OpEq}},
	"verified_email":      {KindBool, []Op{OpEq}},
	"tax_exempt":          {KindBool, []Op{OpEq}},
	"state":               {KindState, []Op{OpEq, OpIn}},
	"tags":                {KindTags, []Op{OpContains, OpIn, OpEq}},
	"email":               {KindText, []Op{OpEq, OpContains, OpIn}},
	"first_name":          {KindText, []Op{OpEq, OpContains}},
	"last_name":           {KindText, []Op{OpEq, OpContains}},
	"phone":               {KindText, []Op{OpEq, OpContains}},
	"currency":            {KindUpper, []Op{OpEq, OpIn}},
	"language":            {KindLower, []Op{OpEq, OpIn}},
	"created_at":          {KindTime, []Op{OpGte, OpLte}},
	"updated_at":          {KindTime, []Op{OpGte, OpLte}},
	"last_order_at":       {KindTime, []Op{OpGte, OpLte}},
	"marketing_opt_in_at": {KindTime, []Op{OpGte, OpLte}},
}

// Condition is one parsed "field op value". Exactly one value member is used, by kind:
// Ints (KindInt), Money (KindMoney), Bool, Texts (text, state, tags, codes; one value
// unless Op is in), Time.
type Condition struct {
	Field string
	Kind  FieldKind
	Op    Op
	Ints  []int64
	Money decimal.Decimal
	Bool  bool
	Texts []string
	Time  TimeValue
}

// TimeValue is an absolute instant or a number of days before "now".
type TimeValue struct {
	At       time.Time
	DaysAgo  int
	Relative bool
}

// Resolve gives the instant at now.
func (t TimeValue) Resolve(now time.Time) time.Time {
	if t.Relative {
		return now.AddDate(0, 0, -t.DaysAgo)
	}
	return t.At
}

var relativeDays = regexp.MustCompile(`^-([0-9]{1,5})d$`)

// ParseTime reads RFC 3339, a plain date (midnight UTC) or "-<n>d" (n days ago).
func ParseTime(s string) (TimeValue, bool) {
	s = strings.TrimSpace(s)
	if m := relativeDays.FindStringSubmatch(s); m != nil {
		n, _ := strconv.Atoi(m[1])
		return TimeValue{DaysAgo: n, Relative: true}, true
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return TimeValue{At: t.UTC()}, true
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return TimeValue{At: t.UTC()}, true
	}
	return TimeValue{}, false
}

// NewSegment validates a name and a query and builds the segment.
func NewSegment(id SegmentID, name string, query map[string]any, now time.Time) (*Segment, error) {
	fields := map[string]string{}
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		fields["name"] = "is required"
	case utf8.RuneCountInString(name) > MaxSegmentNameLength:
		fields["name"] = fmt.Sprintf("must be at most %d characters", MaxSegmentNameLength)
	}
	conds, qerr := ParseQuery(query)
	for k, v := range qerr {
		fields[k] = v
	}
	if len(fields) > 0 {
		return nil, apperr.Validation(fields)
	}
	return &Segment{ID: id, Name: name, Query: query, Conditions: conds, CreatedAt: now, UpdatedAt: now}, nil
}

// ParseQuery validates a query {field: {op: value}} (a bare value means eq) against
// the whitelist and returns its conditions in field order, or the bad members keyed
// "query.<field>[.<op>]".
func ParseQuery(q map[string]any) ([]Condition, map[string]string) {
	bad := map[string]string{}
	if len(q) == 0 {
		bad["query"] = "must have at least one condition"
		return nil, bad
	}
	names := make([]string, 0, len(q))
	for k := range q {
		names = append(names, k)
	}
	sort.Strings(names)
	var out []Condition
	for _, field := range names {
		spec, ok := SegmentFields[field]
		if !ok {
			bad["query."+field] = "is not a segment field"
			continue
		}
		ops, isObj := q[field].(map[string]any)
		if !isObj {
			ops = map[string]any{string(OpEq): q[field]}
		}
		if len(ops) == 0 {
			bad["query."+field] = "must name at least one operator"
			continue
		}
		opNames := make([]string, 0, len(ops))
		for k := range ops {
			opNames = append(opNames, k)
		}
		sort.Strings(opNames)
		for _, name := range opNames {
			key := "query." + field + "." + name
			op := Op(name)
			if !hasOp(spec.Ops, op) {
				bad[key] = "operator must be one of: " + joinOps(spec.Ops)
				continue
			}
			c, msg := parseCondition(field, spec.Kind, op, ops[name])
			if msg != "" {
				bad[key] = msg
				continue
			}
			out = append(out, c)
		}
	}
	if len(out) > MaxConditions {
		bad["query"] = fmt.Sprintf("must have at most %d conditions", MaxConditions)
	}
	if len(bad) > 0 {
		return nil, bad
	}
	return out, nil
}

func hasOp(ops []Op, op Op) bool {
	for _, o := range ops {
		if o == op {
			return true
		}
	}
	return false
}

func joinOps(ops []Op) string {
	s := make([]string, len(ops))
	for i, o := range ops {
		s[i] = string(o)
	}
	return strings.Join(s, ", ")
}

func parseCondition(field string, kind FieldKind, op Op, v any) (Condition, string) {
	c := Condition{Field: field, Kind: kind, Op: op}
	values := []any{v}
	if op == OpIn {
		list, ok := v.([]any)
		if !ok || len(list) == 0 || len(list) > MaxInValues {
			return c, fmt.Sprintf("must be an array of 1 to %d values", MaxInValues)
		}
		values = list
	}
	for _, item := range values {
		if !c.add(item) {
			return c, kindProblems[kind]
		}
	}
	return c, ""
}

// kindProblems name what a value of each field kind must be.
var kindProblems = map[FieldKind]string{
	KindInt:   "must be a whole number of at least 0",
	KindMoney: "must be a decimal amount",
	KindBool:  "must be a boolean",
	KindTime:  "must be an RFC 3339 timestamp, a date (YYYY-MM-DD) or -<days>d",
	KindState: "must be one of: enabled, disabled, invited, declined",
	KindTags:  "must be a non-empty tag",
	KindText:  "must be a non-empty string",
	KindUpper: "must be a non-empty string",
	KindLower: "must be a non-empty string",
}

// add reads one value of the condition's kind into c, normalized (tags and text
// trimmed, codes upper- or lower-cased); false when item is no such value (c is then of
// no use: parseCondition answers the kind's problem).
func (c *Condition) add(item any) bool {
	s, isString := item.(string)
	ok := true
	switch c.Kind {
	case KindInt:
		var n int64
		n, ok = asInt(item)
		c.Ints = append(c.Ints, n)
	case KindMoney:
		c.Money, ok = asDecimal(item)
	case KindBool:
		c.Bool, ok = item.(bool)
	case KindTime:
		c.Time, ok = ParseTime(s)
	case KindState:
		ok = State(s).Valid()
		c.Texts = append(c.Texts, s)
	case KindTags:
		ok = isString && strings.TrimSpace(s) != ""
		c.Texts = append(c.Texts, TagKey(s))
	case KindText, KindUpper, KindLower:
		ok = isString && strings.TrimSpace(s) != "" && utf8.RuneCountInString(s) <= MaxEmailLength
		if s = strings.TrimSpace(s); c.Kind == KindUpper {
			s = strings.ToUpper(s)
		} else {
			s = strings.ToLower(s)
		}
		c.Texts = append(c.Texts, s)
	}
	return ok
}

func asInt(v any) (int64, bool) {
	switch n := v.(type) {
	case json.Number:
		i, err := n.Int64()
		return i, err == nil && i >= 0
	case float64:
		if n < 0 || n != math.Trunc(n) || n > math.MaxInt32 {
			return 0, false
		}
		return int64(n), true
	case int:
		return int64(n), n >= 0
	case int64:
		return n, n >= 0
	}
	return 0, false
}

func asDecimal(v any) (decimal.Decimal, bool) {
	var s string
	switch n := v.(type) {
	case json.Number:
		s = n.String()
	case string:
		s = strings.TrimSpace(n)
	case float64:
		if math.IsNaN(n) || math.IsInf(n, 0) {
			return decimal.Zero, false
		}
		d := decimal.NewFromFloat(n)
		return d, money.Bounded(d)
	case int:
		return decimal.NewFromInt(int64(n)), true
	default:
		return decimal.Zero, false
	}
	d, err := decimal.NewFromString(s)
	return d, err == nil && money.Bounded(d)
}

// MoneyUnits is the integer form amounts are compared in (four decimals, as the
// database keeps them): 19.99 → 199900.
func MoneyUnits(d decimal.Decimal) int64 { return d.Shift(4).Round(0).IntPart() }
