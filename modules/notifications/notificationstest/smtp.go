// Package notificationstest is the notifications module's test kit: a real SMTP
// server (emersion/go-smtp) that keeps the messages it receives, for tests of the
// email channel and of the store's own messages end to end.
package notificationstest

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"errors"
	"io"
	"math/big"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Message is a received email.
type Message struct {
	From string
	To   []string
	Raw  string
	// Header is the parsed header; Body the raw MIME body.
	Header mail.Header
	Body   string
}

// Subject is the decoded subject.
func (m Message) Subject() string {
	s, err := new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject"))
	if err != nil {
		return m.Header.Get("Subject")
	}
	return s
}

// Part returns the decoded part of a content type (text/plain, text/html) of the
// message, single-part or multipart/alternative.
func (m Message) Part(contentType string) string {
	mt, params, err := mime.ParseMediaType(m.Header.Get("Content-Type"))
	if err != nil {
		return ""
	}
	if !strings.HasPrefix(mt, "multipart/") {
		if mt != contentType {
			return ""
		}
		return decodeBody(m.Header.Get("Content-Transfer-Encoding"), strings.NewReader(m.Body))
	}
	r := multipart.NewReader(strings.NewReader(m.Body), params["boundary"])
	for {
		p, err := r.NextRawPart()
		if err != nil {
			return ""
		}
		if pt, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type")); pt == contentType {
			return decodeBody(p.Header.Get("Content-Transfer-Encoding"), p)
		}
	}
}

func decodeBody(encoding string, r io.Reader) string {
	switch strings.ToLower(encoding) {
	case "quoted-printable":
		r = quotedprintable.NewReader(r)
	case "base64":
		r = base64.NewDecoder(base64.StdEncoding, r)
	}
	b, _ := io.ReadAll(r)
	return string(b)
}

// SMTPServer is a local SMTP server.
type SMTPServer struct {
	Addr     string
	Host     string
	Port     int
	Username string
	Password string
	// Roots trusts the server's certificate (StartSMTPTLS).
	Roots *x509.CertPool

	mu       sync.Mutex
	messages []Message
	tls      bool
	// fail makes every DATA answer a 554 while set.
	fail bool
	// notify receives a value per received message.
	notify chan struct{}
}

// StartSMTP starts a server on 127.0.0.1 (PLAIN auth with user/pass, no TLS) that
// stops with the test.
func StartSMTP(t testing.TB) *SMTPServer { return start(t, nil) }

// StartSMTPTLS starts a server offering STARTTLS with a certificate for 127.0.0.1
// signed by a fresh CA; Roots holds that CA for the client.
func StartSMTPTLS(t testing.TB) *SMTPServer {
	t.Helper()
	cert, roots := selfSigned(t)
	s := start(t, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
	s.Roots = roots
	return s
}

func start(t testing.TB, tlsConfig *tls.Config) *SMTPServer {
	t.Helper()
	s := &SMTPServer{Username: "mailer", Password: "secret", notify: make(chan struct{}, 100000)}
	srv := smtp.NewServer(backend{s})
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = tlsConfig == nil
	srv.TLSConfig = tlsConfig
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	srv.MaxRecipients = 10
	l, err := new(net.ListenConfig).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })
	addr := l.Addr().(*net.TCPAddr)
	s.Addr, s.Host, s.Port = addr.String(), "127.0.0.1", addr.Port
	return s
}

// Fail makes the server refuse (554) every message until Fail(false).
func (s *SMTPServer) Fail(on bool) {
	s.mu.Lock()
	s.fail = on
	s.mu.Unlock()
}

// UsedTLS reports whether the last message came over TLS.
func (s *SMTPServer) UsedTLS() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tls
}

// Messages returns the messages received so far.
func (s *SMTPServer) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.messages...)
}

// Wait waits until n messages arrived (failing the test after limit) and returns them.
func (s *SMTPServer) Wait(t testing.TB, n int, limit time.Duration) []Message {
	t.Helper()
	deadline := time.After(limit)
	for len(s.Messages()) < n {
		select {
		case <-s.notify:
		case <-deadline:
			t.Fatalf("SMTP server got %d messages, want %d", len(s.Messages()), n)
		}
	}
	return s.Messages()
}

type backend struct{ s *SMTPServer }

func (b backend) NewSession(c *smtp.Conn) (smtp.Session, error) {
	return &session{s: b.s, conn: c}, nil
}

type session struct {
	s      *SMTPServer
	conn   *smtp.Conn
	authed bool
	from   string
	to     []string
}

var _ smtp.AuthSession = (*session)(nil)

func (x *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (x *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if user != x.s.Username || pass != x.s.Password {
			return errors.New("invalid credentials")
		}
		x.authed = true
		return nil
	}), nil
}

func (x *session) Mail(from string, _ *smtp.MailOptions) error {
	if !x.authed {
		return smtp.ErrAuthRequired
	}
	x.from = from
	return nil
}

func (x *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	x.to = append(x.to, to)
	return nil
}

func (x *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	x.s.mu.Lock()
	fail := x.s.fail
	x.s.mu.Unlock()
	if fail {
		return &smtp.SMTPError{Code: 554, EnhancedCode: smtp.EnhancedCode{5, 0, 0}, Message: "mailbox unavailable (test)"}
	}
	m := Message{From: x.from, To: x.to, Raw: string(raw)}
	if msg, err := mail.ReadMessage(strings.NewReader(m.Raw)); err == nil {
		m.Header = msg.Header
		body, _ := io.ReadAll(msg.Body)
		m.Body = string(body)
	}
	_, tlsOn := x.conn.TLSConnectionState()
	x.s.mu.Lock()
	x.s.tls = tlsOn
	x.s.messages = append(x.s.messages, m)
	x.s.mu.Unlock()
	x.s.notify <- struct{}{}
	return nil
}

func (x *session) Reset()        { x.from, x.to = "", nil }
func (x *session) Logout() error { return nil }

// selfSigned makes a CA and a certificate for 127.0.0.1 signed by it.
func selfSigned(t testing.TB) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "notificationstest"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
	}
	der, err := x509.CreateCertificate(rand.Reader, tpl, tpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, roots
}
