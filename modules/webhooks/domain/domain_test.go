package domain_test

import (
	"net/netip"
	"testing"
	"time"

	"github.com/gocommerce/commerce/modules/webhooks/domain"
)

func TestSign(t *testing.T) {
	t.Parallel()
	// echo -n '1700000000.{"id":"evt_1"}' | openssl dgst -sha256 -hmac whsec_test
	got := domain.Sign("whsec_test", time.Unix(1700000000, 0), []byte(`{"id":"evt_1"}`))
	want := "t=1700000000,v1=c89214b5b5da833daed6f0b8c5bb6bd58cea9022bd80ccc78230f3942d632925"
	if got != want {
		t.Fatalf("Sign = %s", got)
	}
}

func TestRetryDelay(t *testing.T) {
	t.Parallel()
	r := domain.Retry{MaxRetries: 5, Base: 30 * time.Second, Max: time.Hour}
	for n, full := range map[int]time.Duration{1: 30 * time.Second, 2: time.Minute, 3: 2 * time.Minute, 5: 8 * time.Minute, 20: time.Hour} {
		for range 50 {
			if d := r.Delay(n); d < full/2 || d > full {
				t.Fatalf("Delay(%d) = %v, want within [%v, %v]", n, d, full/2, full)
			}
		}
	}
}

func TestRecord(t *testing.T) {
	t.Parallel()
	r := domain.Retry{MaxRetries: 2, Base: time.Second, Max: time.Minute}
	now := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	d := &domain.Delivery{Status: domain.StatusPending}
	for n := 1; n <= 2; n++ {
		if d.Record(domain.Attempt{Number: n, StatusCode: 503}, r, now) || d.NextAttemptAt == nil || d.Status != domain.StatusPending {
			t.Fatalf("attempt %d: %+v", n, d)
		}
	}
	if !d.Record(domain.Attempt{Number: 3, Error: "refused"}, r, now) || d.Status != domain.StatusFailed || d.NextAttemptAt != nil || d.CompletedAt == nil {
		t.Fatalf("after the last retry: %+v", d)
	}
	ok := &domain.Delivery{Status: domain.StatusPending}
	if !ok.Record(domain.Attempt{Number: 1, StatusCode: 204}, r, now) || ok.Status != domain.StatusSucceeded {
		t.Fatalf("2xx: %+v", ok)
	}
}

func TestCheckEvents(t *testing.T) {
	t.Parallel()
	if got, msg := domain.CheckEvents([]string{"order.created", "order.created", "cart.item_added"}); msg != "" || len(got) != 2 {
		t.Errorf("%v %q", got, msg)
	}
	if got, msg := domain.CheckEvents([]string{"order.created", "*"}); msg != "" || len(got) != 1 || got[0] != "*" {
		t.Errorf("%v %q", got, msg)
	}
	for _, bad := range [][]string{nil, {"Order.Created"}, {"order"}, {"order.*"}, {""}} {
		if _, msg := domain.CheckEvents(bad); msg == "" {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestPolicy(t *testing.T) {
	t.Parallel()
	p, err := domain.NewPolicy(true, []string{"hooks.internal", "10.9.0.0/16", "192.168.7.7"})
	if err != nil {
		t.Fatal(err)
	}
	for addr, want := range map[string]bool{
		"93.184.216.34": true, "2606:4700::1111": true, "127.0.0.1": false, "::1": false, "10.0.0.1": false, "172.16.3.4": false,
		"192.168.1.1": false, "169.254.169.254": false, "fe80::1": false, "fd00::1": false, "100.64.0.1": false, "0.0.0.0": false,
		"::ffff:127.0.0.1": false, "10.9.3.4": true, "192.168.7.7": true, "224.0.0.1": false,
	} {
		if got := p.AddrAllowed(netip.MustParseAddr(addr)); got != want {
			t.Errorf("AddrAllowed(%s) = %v", addr, got)
		}
	}
	if !p.HostAllowed("Hooks.Internal.") || p.HostAllowed("other.internal") {
		t.Error("HostAllowed")
	}
	if p.CheckScheme("http://x.test") != domain.MsgHTTPSRequired || p.CheckScheme("https://x.test") != "" {
		t.Error("CheckScheme")
	}
	dev, _ := domain.NewPolicy(false, nil)
	if !dev.AddrAllowed(netip.MustParseAddr("127.0.0.1")) || dev.CheckScheme("http://localhost:3000") != "" {
		t.Error("the development policy accepts http and loopback")
	}
	if _, err := domain.NewPolicy(true, []string{"10.0.0.0/99"}); err == nil {
		t.Error("bad CIDR accepted")
	}
}
