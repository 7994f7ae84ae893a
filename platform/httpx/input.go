package httpx

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/limits"
)

// Input rules (docs/decisions/0094-input-rules.md), applied once to every route before
// any handler runs, so no handler and no database sees such input:
//
//   - a query-string name or value, a path parameter or a data header (Idempotency-Key,
//     X-Session-Token) with a NUL character, invalid UTF-8, broken percent-encoding or
//     more than limits.MaxQueryValue bytes;
//   - a JSON body with a NUL character (\u0000) or invalid UTF-8 in any string (member
//     names included), or a number outside limits.MinInt..limits.MaxInt.
//
// Each is a 400 validation error naming the parameter or the member's path
// (`items[0].quantity`). A body that is not JSON at all is left to the handler, which
// reports it as such. Routes registered with KeepNumbers (a provider's webhook, a
// quantity with its own spec code) keep their numbers: only the string rules apply.

// dataHeaders are the request headers whose values the API stores or looks up (the
// others are either validated where read or never reach storage); they follow the
// query-string rules.
var dataHeaders = []string{"Idempotency-Key", "X-Session-Token"}

// Messages of the input rules.
const (
	MsgNUL          = "must not contain NUL characters"
	MsgUTF8         = "must be valid UTF-8"
	MsgEncoding     = "must be percent-encoded correctly"
	msgNumberFormat = "must be from %d to %d"
)

// keepNumbers is the bodyRoutes key suffix of a route whose JSON numbers are its own.
const keepNumbers = "application/json;keep-numbers"

// KeepNumbers lets "METHOD /full/path" take JSON numbers of any size: the input rules
// check its strings but not its numbers, which its handler bounds itself. For bodies a
// third party shapes (a provider's webhook) and for numbers the spec gives their own
// error code (a cart quantity out of 1..9999 is INVALID_QUANTITY, whatever its size).
func (r *Routes) KeepNumbers(method, fullPath string) {
	r.bodies[method+" "+fullPath+" "+keepNumbers] = BodyRule{}
}

// MsgNumberRange is the message for a number outside the API's integer range.
var MsgNumberRange = fmt.Sprintf(msgNumberFormat, limits.MinInt, limits.MaxInt)

// MsgTooLong is the message for a query value or path parameter over the limit.
var MsgTooLong = fmt.Sprintf("must be at most %d bytes", limits.MaxQueryValue)

func inputRules(routes bodyRoutes) gin.HandlerFunc {
	return func(c *gin.Context) {
		fields := map[string]string{}
		checkQuery(c.Request.URL.RawQuery, fields)
		for _, p := range c.Params {
			if msg := checkText(p.Value, limits.MaxQueryValue); msg != "" {
				fields[fieldName(p.Key)] = msg
			}
		}
		for _, h := range dataHeaders {
			if msg := checkText(c.Request.Header.Get(h), limits.MaxQueryValue); msg != "" {
				fields[h] = msg
			}
		}
		if len(fields) > 0 {
			Error(c, apperr.Validation(fields).WithMessage("Invalid request parameters"))
			return
		}
		if !jsonBody(c.Request) {
			c.Next()
			return
		}
		data, err := readBody(c.Request)
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				Error(c, apperr.New(apperr.TooLarge, "", fmt.Sprintf("Request body exceeds %d bytes", mbe.Limit)))
				return
			}
			Error(c, apperr.Validation(map[string]string{"body": "could not be read"}))
			return
		}
		c.Request.Body = io.NopCloser(bytes.NewReader(data))
		_, keep := routes[c.Request.Method+" "+c.FullPath()+" "+keepNumbers]
		if path, msg := CheckJSON(data, !keep); msg != "" {
			Error(c, apperr.Validation(map[string]string{path: msg}))
			return
		}
		c.Next()
	}
}

// jsonBody reports whether the request carries a JSON body (bodyRules has already
// refused other media types where the route did not register them).
func jsonBody(r *http.Request) bool {
	if r.Method == http.MethodGet || r.Method == http.MethodHead || r.Method == http.MethodOptions {
		return false
	}
	if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
		return false
	}
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return mt == "application/json" || strings.HasSuffix(mt, "+json")
}

func readBody(r *http.Request) ([]byte, error) {
	size := r.ContentLength
	if size < 0 || size > 1<<20 {
		size = 512
	}
	buf := bytes.NewBuffer(make([]byte, 0, size+1))
	_, err := buf.ReadFrom(r.Body)
	return buf.Bytes(), err
}

// checkQuery checks every name and value of a raw query string.
func checkQuery(raw string, fields map[string]string) {
	for raw != "" {
		var pair string
		pair, raw, _ = strings.Cut(raw, "&")
		if pair == "" {
			continue
		}
		rawKey, rawValue, _ := strings.Cut(pair, "=")
		key, kerr := url.QueryUnescape(rawKey)
		value, verr := url.QueryUnescape(rawValue)
		name := fieldName(key)
		if kerr != nil {
			name = fieldName(rawKey)
		}
		switch {
		case kerr != nil || verr != nil:
			fields[name] = MsgEncoding
		case checkText(key, limits.MaxQueryValue) != "":
			fields[name] = checkText(key, limits.MaxQueryValue)
		default:
			if msg := checkText(value, limits.MaxQueryValue); msg != "" {
				fields[name] = msg
			}
		}
	}
}

// checkText returns why s may not be a query value or path parameter ("" when it may).
func checkText(s string, maxBytes int) string {
	switch {
	case strings.IndexByte(s, 0) >= 0:
		return MsgNUL
	case !utf8.ValidString(s):
		return MsgUTF8
	case len(s) > maxBytes:
		return fmt.Sprintf("must be at most %d bytes", maxBytes)
	}
	return ""
}

// fieldName makes a parameter name printable in the envelope: NUL and invalid UTF-8
// become U+FFFD and the name is cut to 64 bytes.
func fieldName(s string) string {
	s = strings.ToValidUTF8(strings.ReplaceAll(s, "\x00", "\uFFFD"), "\uFFFD")
	if len(s) > 64 {
		cut := 64
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	if s == "" {
		return "query"
	}
	return s
}

// CheckJSON scans a JSON document for the input rules' string problems and, with
// numbers, for numbers outside limits.MinInt..limits.MaxInt. It returns the first
// problem's path ("body" for the top value, `a.b[2]` below it) and message, or "" when
// there is none or data is not well-formed JSON (the decoder reports that).
func CheckJSON(data []byte, numbers bool) (path, msg string) {
	s := &jsonScanner{data: data, numbers: numbers}
	s.skipSpace()
	if err := s.value(0); err != nil {
		var p *jsonProblem
		if errors.As(err, &p) {
			return p.path(), p.msg
		}
	}
	return "", ""
}

// maxDepth is where the scan stops looking (encoding/json refuses deeper documents).
const maxDepth = 10000

var errSyntax = errors.New("json syntax")

type jsonProblem struct {
	stack []pathElem
	msg   string
}

func (p *jsonProblem) Error() string { return p.msg }

func (p *jsonProblem) path() string {
	var b strings.Builder
	for _, e := range p.stack {
		if e.key == nil {
			b.WriteString("[" + strconv.Itoa(e.index) + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(fieldName(unquote(e.key)))
	}
	if b.Len() == 0 {
		return "body"
	}
	return b.String()
}

// pathElem is one step of a member's path: an object member (its quoted name as sent,
// decoded only when a problem is reported) or an array index.
type pathElem struct {
	key   []byte // nil for an array element
	index int
}

type jsonScanner struct {
	data    []byte
	i       int
	numbers bool
	stack   []pathElem
}

func (s *jsonScanner) problem(msg string) error {
	return &jsonProblem{stack: append([]pathElem(nil), s.stack...), msg: msg}
}

func (s *jsonScanner) skipSpace() {
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *jsonScanner) value(depth int) error {
	if depth > maxDepth || s.i >= len(s.data) {
		return errSyntax
	}
	switch c := s.data[s.i]; {
	case c == '{':
		return s.object(depth)
	case c == '[':
		return s.array(depth)
	case c == '"':
		return s.str()
	case c == '-' || (c >= '0' && c <= '9'):
		return s.number()
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	}
	return errSyntax
}

func (s *jsonScanner) literal(word string) error {
	if !bytes.HasPrefix(s.data[s.i:], []byte(word)) {
		return errSyntax
	}
	s.i += len(word)
	return nil
}

func (s *jsonScanner) object(depth int) error {
	s.i++ // {
	s.skipSpace()
	if s.i < len(s.data) && s.data[s.i] == '}' {
		s.i++
		return nil
	}
	for {
		if s.i >= len(s.data) || s.data[s.i] != '"' {
			return errSyntax
		}
		start := s.i
		if err := s.str(); err != nil {
			var p *jsonProblem
			if errors.As(err, &p) {
				// Name the member itself, as sent.
				key := rawString(s.data[start+1:])
				p.stack = append(p.stack, pathElem{key: []byte(`"` + strings.ReplaceAll(key, `\`, `\\`) + `"`)})
			}
			return err
		}
		key := s.data[start:s.i]
		s.skipSpace()
		if s.i >= len(s.data) || s.data[s.i] != ':' {
			return errSyntax
		}
		s.i++
		s.skipSpace()
		if done, err := s.item(pathElem{key: key}, depth, '}'); done || err != nil {
			return err
		}
	}
}

// item scans a member's value or an element at e, then what follows it (next).
func (s *jsonScanner) item(e pathElem, depth int, closing byte) (done bool, err error) {
	s.stack = append(s.stack, e)
	if err := s.value(depth + 1); err != nil {
		return false, err
	}
	s.stack = s.stack[:len(s.stack)-1]
	return s.next(closing)
}

// digits skips a run of digits and reports whether there was one.
func (s *jsonScanner) digits() bool {
	n := s.i
	for s.i < len(s.data) && s.data[s.i] >= '0' && s.data[s.i] <= '9' {
		s.i++
	}
	return s.i > n
}

// next reads what follows a member or an element: a comma (more to come) or the
// container's closing byte (done).
func (s *jsonScanner) next(closing byte) (done bool, err error) {
	s.skipSpace()
	if s.i >= len(s.data) {
		return false, errSyntax
	}
	switch s.data[s.i] {
	case ',':
		s.i++
		s.skipSpace()
		return false, nil
	case closing:
		s.i++
		return true, nil
	}
	return false, errSyntax
}

func (s *jsonScanner) array(depth int) error {
	s.i++ // [
	s.skipSpace()
	if s.i < len(s.data) && s.data[s.i] == ']' {
		s.i++
		return nil
	}
	for n := 0; ; n++ {
		if done, err := s.item(pathElem{index: n}, depth, ']'); done || err != nil {
			return err
		}
	}
}

// str scans a string starting at its opening quote. A problem inside a member name is
// reported at the object (the caller adds the name).
func (s *jsonScanner) str() error {
	s.i++ // "
	for s.i < len(s.data) {
		c := s.data[s.i]
		switch {
		case c == '"':
			s.i++
			return nil
		case c < 0x20:
			return errSyntax
		case c == '\\':
			if s.i+1 >= len(s.data) {
				return errSyntax
			}
			switch s.data[s.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.i += 2
			case 'u':
				if s.i+6 > len(s.data) {
					return errSyntax
				}
				r, err := strconv.ParseUint(string(s.data[s.i+2:s.i+6]), 16, 16)
				if err != nil {
					return errSyntax
				}
				if r == 0 {
					return s.problem(MsgNUL)
				}
				s.i += 6
			default:
				return errSyntax
			}
		case c < utf8.RuneSelf:
			s.i++
		default:
			r, size := utf8.DecodeRune(s.data[s.i:])
			if r == utf8.RuneError && size <= 1 {
				return s.problem(MsgUTF8)
			}
			s.i += size
		}
	}
	return errSyntax
}

// rawString returns a string's text as sent, up to its closing quote.
func rawString(b []byte) string {
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return string(b[:i])
		}
	}
	return string(b)
}

func unquote(quoted []byte) string {
	inner := quoted[1 : len(quoted)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return string(inner)
	}
	var out strings.Builder
	for i := 0; i < len(inner); i++ {
		c := inner[i]
		if c != '\\' {
			out.WriteByte(c)
			continue
		}
		i++
		switch inner[i] {
		case 'u':
			r, _ := strconv.ParseUint(string(inner[i+1:i+5]), 16, 16)
			out.WriteRune(rune(r))
			i += 4
		case 'b':
			out.WriteByte('\b')
		case 'f':
			out.WriteByte('\f')
		case 'n':
			out.WriteByte('\n')
		case 'r':
			out.WriteByte('\r')
		case 't':
			out.WriteByte('\t')
		default:
			out.WriteByte(inner[i])
		}
	}
	return out.String()
}

// number scans a number and, with numbers, refuses one outside the API's range.
func (s *jsonScanner) number() error {
	start := s.i
	if s.data[s.i] == '-' {
		s.i++
	}
	digits := s.i
	if s.i >= len(s.data) {
		return errSyntax
	}
	switch {
	case s.data[s.i] == '0':
		s.i++
	case s.data[s.i] >= '1' && s.data[s.i] <= '9':
		s.digits()
	default:
		return errSyntax
	}
	intEnd := s.i
	plain := true
	if s.i < len(s.data) && s.data[s.i] == '.' {
		plain = false
		s.i++
		if !s.digits() {
			return errSyntax
		}
	}
	if s.i < len(s.data) && (s.data[s.i] == 'e' || s.data[s.i] == 'E') {
		plain = false
		s.i++
		if s.i < len(s.data) && (s.data[s.i] == '+' || s.data[s.i] == '-') {
			s.i++
		}
		if !s.digits() {
			return errSyntax
		}
	}
	if !s.numbers {
		return nil
	}
	if plain {
		// Fast path: up to 9 digits is always in range.
		if intEnd-digits <= 9 {
			return nil
		}
		if n, err := strconv.ParseInt(string(s.data[start:intEnd]), 10, 64); err == nil && n >= limits.MinInt && n <= limits.MaxInt {
			return nil
		}
		return s.problem(MsgNumberRange)
	}
	f, err := strconv.ParseFloat(string(s.data[start:s.i]), 64)
	if err != nil || f < limits.MinInt || f > limits.MaxInt {
		return s.problem(MsgNumberRange)
	}
	return nil
}
