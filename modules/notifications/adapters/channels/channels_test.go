package channels_test

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/mail"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/commerce/modules/notifications/adapters/channels"
	"github.com/gocommerce/commerce/modules/notifications/domain"
	"github.com/gocommerce/commerce/modules/notifications/notificationstest"
	"github.com/gocommerce/commerce/modules/notifications/ports"
	"github.com/gocommerce/commerce/platform/config"
)

func note(channel, recipient string) *domain.Notification {
	return &domain.Notification{ID: "0190a000-0000-7000-8000-000000000001", Channel: channel, Recipient: recipient, Subject: "Hi there",
		Body: "Plain text", HTMLBody: "<p>Rich</p>", Priority: "normal", Metadata: map[string]any{"order_id": "o1", "n": 2},
		CreatedAt: time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)}
}

// smtpConfig is the email settings of a sender from "from" on the test server srv,
// with its credentials and the TLS mode given.
func smtpConfig(srv *notificationstest.SMTPServer, from, tlsMode string) config.NotificationEmail {
	return config.NotificationEmail{From: from, Host: srv.Host, Port: srv.Port, Username: srv.Username,
		Password: srv.Password, TLS: tlsMode, Timeout: 5 * time.Second}
}

func TestSMTPAgainstARealServer(t *testing.T) {
	t.Parallel()
	srv := notificationstest.StartSMTP(t)
	cfg := smtpConfig(srv, "Shop <shop@example.com>", "none")
	ch := channels.NewSMTP(cfg)
	id, err := ch.Send(context.Background(), note("email", "ada@example.com"))
	if err != nil {
		t.Fatal(err)
	}
	m := srv.Wait(t, 1, 5*time.Second)[0]
	if id != "<0190a000-0000-7000-8000-000000000001@example.com>" || m.Header.Get("Message-Id") != id {
		t.Errorf("message id %q header %q", id, m.Header.Get("Message-Id"))
	}
	if m.From != "shop@example.com" || m.To[0] != "ada@example.com" || m.Subject() != "Hi there" ||
		m.Part("text/plain") != "Plain text" || m.Part("text/html") != "<p>Rich</p>" {
		t.Errorf("received %+v\n%s", m, m.Raw)
	}
	// Wrong credentials and a refusing server are errors (the attempt fails).
	bad := cfg
	bad.Password = "wrong"
	if _, err := channels.NewSMTP(bad).Send(context.Background(), note("email", "ada@example.com")); err == nil {
		t.Error("wrong password accepted")
	}
	srv.Fail(true)
	if _, err := ch.Send(context.Background(), note("email", "ada@example.com")); err == nil || !strings.Contains(err.Error(), "554") {
		t.Errorf("refused message: %v", err)
	}
	// TLS required but not offered.
	tls := cfg
	tls.TLS = "mandatory_starttls"
	srv.Fail(false)
	if _, err := channels.NewSMTP(tls).Send(context.Background(), note("email", "ada@example.com")); err == nil {
		t.Error("mandatory STARTTLS passed without TLS")
	}
}

func TestSMTPWithSTARTTLS(t *testing.T) {
	t.Parallel()
	srv := notificationstest.StartSMTPTLS(t)
	cfg := smtpConfig(srv, "shop@example.com", "mandatory_starttls")
	ch := channels.NewSMTP(cfg)
	// The server's certificate is not trusted yet: mandatory TLS refuses it.
	if _, err := ch.Send(context.Background(), note("email", "ada@example.com")); err == nil {
		t.Fatal("an untrusted certificate was accepted")
	}
	if err := ch.SetTLSConfig(&tls.Config{RootCAs: srv.Roots, MinVersion: tls.VersionTLS12}); err != nil {
		t.Fatal(err)
	}
	if _, err := ch.Send(context.Background(), note("email", "ada@example.com")); err != nil {
		t.Fatal(err)
	}
	if m := srv.Wait(t, 1, 5*time.Second)[0]; m.Subject() != "Hi there" || !srv.UsedTLS() {
		t.Errorf("message %q over TLS %v", m.Subject(), srv.UsedTLS())
	}
	// Without TLS the server refuses PLAIN authentication.
	plain := cfg
	plain.TLS = "none"
	if _, err := channels.NewSMTP(plain).Send(context.Background(), note("email", "ada@example.com")); err == nil {
		t.Error("PLAIN auth accepted without TLS")
	}
}

func TestOutboxWritesEmlFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := config.Default()
	cfg.DataDir = dir
	ch := channels.NewEmail(cfg.Notifications.Email, dir) // no host: the outbox
	if ch.Name() != "email" {
		t.Fatal(ch.Name())
	}
	if _, err := ch.Send(context.Background(), note("email", "ada@example.com")); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "outbox", "0190a000-0000-7000-8000-000000000001.eml"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := mail.ReadMessage(f)
	if err != nil || m.Header.Get("Subject") != "Hi there" || m.Header.Get("To") != "<ada@example.com>" {
		t.Errorf("eml %v %v", m.Header, err)
	}
	cfg.Notifications.Email.Host = "smtp.example.com"
	if _, ok := channels.NewEmail(cfg.Notifications.Email, dir).(*channels.SMTP); !ok {
		t.Error("a host does not select SMTP")
	}
}

func TestSMSTwilioStyle(t *testing.T) {
	t.Parallel()
	var got struct {
		path, user, pass string
		form             map[string]string
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.path = r.URL.Path
		got.user, got.pass, _ = r.BasicAuth()
		_ = r.ParseForm()
		got.form = map[string]string{"To": r.PostForm.Get("To"), "From": r.PostForm.Get("From"), "Body": r.PostForm.Get("Body")}
		if r.PostForm.Get("To") == "+15550000000" {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, `{"code":21211,"message":"Invalid 'To' Phone Number"}`)
			return
		}
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, `{"sid":"SM123","status":"queued"}`)
	}))
	defer srv.Close()
	ch := channels.NewSMS(config.NotificationSMS{BaseURL: srv.URL, AccountSID: "AC1", AuthToken: "tok", From: "+15550001111"}, srv.Client())
	id, err := ch.Send(context.Background(), note("sms", "+15550100123"))
	if err != nil || id != "SM123" {
		t.Fatalf("send %q %v", id, err)
	}
	if got.path != "/2010-04-01/Accounts/AC1/Messages.json" || got.user != "AC1" || got.pass != "tok" ||
		got.form["To"] != "+15550100123" || got.form["From"] != "+15550001111" || got.form["Body"] != "Plain text" {
		t.Errorf("request %+v", got)
	}
	if _, err := ch.Send(context.Background(), note("sms", "+15550000000")); err == nil || !strings.Contains(err.Error(), "21211") {
		t.Errorf("refusal: %v", err)
	}
	unconfigured := channels.NewSMS(config.NotificationSMS{BaseURL: srv.URL}, srv.Client())
	if _, err := unconfigured.Send(context.Background(), note("sms", "+15550100123")); !errors.Is(err, ports.ErrChannelUnavailable) {
		t.Errorf("unconfigured: %v", err)
	}
}

func TestPushFCMv1(t *testing.T) {
	t.Parallel()
	var body map[string]any
	var auth, path string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth, path = r.Header.Get("Authorization"), r.URL.Path
		_ = json.NewDecoder(r.Body).Decode(&body)
		_, _ = io.WriteString(w, `{"name":"projects/shop/messages/0:123"}`)
	}))
	defer srv.Close()
	ch := channels.NewPush(config.NotificationPush{BaseURL: srv.URL, ProjectID: "shop", AccessToken: "ya29.token"}, srv.Client())
	id, err := ch.Send(context.Background(), note("push", "device-token-1"))
	if err != nil || id != "projects/shop/messages/0:123" {
		t.Fatalf("send %q %v", id, err)
	}
	msg, _ := body["message"].(map[string]any)
	n, _ := msg["notification"].(map[string]any)
	data, _ := msg["data"].(map[string]any)
	if path != "/v1/projects/shop/messages:send" || auth != "Bearer ya29.token" || msg["token"] != "device-token-1" ||
		n["title"] != "Hi there" || n["body"] != "Plain text" || data["order_id"] != "o1" || data["notification_id"] == nil {
		t.Errorf("request %s %s %v", path, auth, body)
	}
	if _, err := channels.NewPush(config.NotificationPush{BaseURL: srv.URL}, srv.Client()).Send(context.Background(), note("push", "t")); !errors.Is(err, ports.ErrChannelUnavailable) {
		t.Errorf("unconfigured: %v", err)
	}
}

func TestWebhookSignedPost(t *testing.T) {
	t.Parallel()
	var raw []byte
	var sig string
	status := http.StatusOK
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ = io.ReadAll(r.Body)
		sig = r.Header.Get(channels.SignatureHeader)
		w.WriteHeader(status)
	}))
	defer srv.Close()
	ch := channels.NewWebhook("s3cret", srv.Client())
	if _, err := ch.Send(context.Background(), note("webhook", srv.URL+"/hook")); err != nil {
		t.Fatal(err)
	}
	ts := strings.TrimPrefix(strings.Split(sig, ",")[0], "t=")
	if want := channels.Sign("s3cret", unix(t, ts), raw); sig != want {
		t.Errorf("signature %q, want %q", sig, want)
	}
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil || body["id"] != "evt_0190a000-0000-7000-8000-000000000001" || body["type"] != "notification" {
		t.Errorf("body %s", raw)
	}
	status = http.StatusInternalServerError
	if _, err := ch.Send(context.Background(), note("webhook", srv.URL+"/hook")); err == nil || !strings.Contains(err.Error(), "HTTP 500") {
		t.Errorf("500: %v", err)
	}
	if _, err := (channels.InApp{}).Send(context.Background(), note("in_app", "c1")); err != nil {
		t.Error(err)
	}
}

func unix(t *testing.T, s string) time.Time {
	t.Helper()
	sec, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return time.Unix(sec, 0)
}
