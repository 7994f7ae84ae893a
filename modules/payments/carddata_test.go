package payments_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/gocommerce/commerce/platform/testdb"
)

var (
	uuidLike  = regexp.MustCompile(`[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`)
	hexRun    = regexp.MustCompile(`[0-9a-fA-F]{8,}`)
	timestamp = regexp.MustCompile(`\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}(:?\d{2})?)?`)
	// durations and decimals in log fields ("1.987ms", "0.987"): a CVC is never one.
	measure  = regexp.MustCompile(`[0-9]*\.[0-9]+(ns|µs|us|ms|s|m|h)?|[0-9]+(ns|µs|us|ms)`)
	cvcValue = regexp.MustCompile(`(^|[^0-9])987([^0-9]|$)`)
)

// dump returns the text of every row of every table of the module and the outbox.
func (s *stack) dump() string {
	s.t.Helper()
	var b strings.Builder
	for _, table := range []string{"payments_payments", "payments_refunds", "payments_saved_methods", "payments_idempotency_keys", "payments_webhook_events", "outbox_events"} {
		_, rows := testdb.Rows(s.t, s.db, table)
		for _, row := range rows {
			for _, v := range row {
				fmt.Fprintf(&b, "%v\n", v)
			}
		}
	}
	return b.String()
}

// TestNoCardDataStored pays, saves, completes 3D Secure, replays and refunds, then scans
// every stored row and every log entry for the card numbers and the CVC.
func TestNoCardDataStored(t *testing.T) {
	eachStack(t, stackOptions{}, func(t *testing.T, s *stack) {
		numbers := []string{"4242 4242 4242 4242", "4000 0025 0000 3155", "4000 0000 0000 0002", "5555 5555 5555 4444"}
		body := payBody("19.99", numbers[0])
		body["save_payment_method"] = true
		body["idempotency_key"] = "scan-1"
		r := s.do(http.MethodPost, "/api/v1/payments", "alice", body)
		s.do(http.MethodPost, "/api/v1/payments", "alice", body)
		s.do(http.MethodPost, "/api/v1/payments/"+r.Body["payment_id"].(string)+"/refund", "merchant", map[string]any{"amount": "1.00"})
		r = s.pay("alice", "19.99", numbers[1])
		s.do(http.MethodPost, "/api/v1/payments/"+r.Body["payment_id"].(string)+"/complete", "alice", map[string]any{
			"action_type": "three_d_secure", "action_data": map[string]any{"payment_intent": sub(r.Body, "action_data")["payment_intent"]},
		})
		s.pay("alice", "19.99", numbers[2])
		s.do(http.MethodPost, "/api/v1/payments/saved-methods", "alice", map[string]any{"payment_method_data": card(numbers[3])})
		s.pay("alice", "19.99", "4242 4242 4242 4241") // invalid: rejected with field errors

		text := s.dump()
		if !strings.Contains(text, "4242") || !strings.Contains(text, "visa") {
			t.Fatal("the dump does not contain the stored card details; the scan proves nothing")
		}
		var logs strings.Builder
		for _, e := range s.logs.All() {
			fmt.Fprintf(&logs, "%s %v\n", e.Message, e.ContextMap())
		}
		for name, hay := range map[string]string{"database": text, "logs": logs.String()} {
			for _, n := range append(numbers, "4242 4242 4242 4241") {
				for _, form := range []string{n, strings.ReplaceAll(n, " ", "")} {
					if strings.Contains(hay, form) {
						t.Errorf("%s holds the card number %s", name, form)
					}
				}
			}
			stripped := measure.ReplaceAllString(timestamp.ReplaceAllString(hexRun.ReplaceAllString(uuidLike.ReplaceAllString(hay, ""), ""), ""), "")
			if cvcValue.MatchString(stripped) || strings.Contains(hay, `"cvc"`) {
				t.Errorf("%s holds the CVC", name)
			}
		}
	})
}
