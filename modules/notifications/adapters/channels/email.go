// Package channels holds the delivery channels of the notifications module, each a
// real client of its provider: email over SMTP (wneessen/go-mail) or, with no SMTP
// host configured, into .eml files of a local outbox; SMS through a Twilio-style
// Messages API; push through Firebase Cloud Messaging HTTP v1; webhook as a signed
// HTTP POST; and in_app, stored for the customer to read.
package channels

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/wneessen/go-mail"
	"github.com/wneessen/go-mail/smtp"

	"github.com/gocommerce/commerce/modules/notifications/domain"
	"github.com/gocommerce/commerce/modules/notifications/ports"
	"github.com/gocommerce/commerce/platform/config"
)

// SMTP sends email through an SMTP server. It keeps up to MaxIdle authenticated
// connections open between sends (a bulk batch reuses them); each is checked (NOOP)
// before use, and a stale one is replaced once.
type SMTP struct {
	cfg    config.NotificationEmail
	client *mail.Client
	err    error

	mu   sync.Mutex
	idle []idleConn
}

type idleConn struct {
	c     *smtp.Client
	since time.Time
}

// MaxIdle is how many connections stay open between sends; MaxIdleTime how long.
const (
	MaxIdle     = 16
	MaxIdleTime = 30 * time.Second
)

var _ ports.Channel = (*SMTP)(nil)

// NewSMTP builds the SMTP channel.
func NewSMTP(cfg config.NotificationEmail) *SMTP {
	opts := []mail.Option{mail.WithPort(cfg.Port), mail.WithTimeout(cfg.Timeout)}
	switch cfg.TLS {
	case "tls":
		opts = append(opts, mail.WithSSL())
	case "mandatory_starttls":
		opts = append(opts, mail.WithTLSPolicy(mail.TLSMandatory))
	case "none":
		opts = append(opts, mail.WithTLSPolicy(mail.NoTLS))
	default:
		opts = append(opts, mail.WithTLSPolicy(mail.TLSOpportunistic))
	}
	if cfg.Username != "" {
		opts = append(opts, mail.WithSMTPAuth(mail.SMTPAuthPlain), mail.WithUsername(cfg.Username), mail.WithPassword(cfg.Password))
	}
	c, err := mail.NewClient(cfg.Host, opts...)
	return &SMTP{cfg: cfg, client: c, err: err}
}

// Name is email.
func (*SMTP) Name() string { return domain.ChannelEmail }

// SetTLSConfig replaces the TLS settings (e.g. a private CA's roots); the server name
// is the configured host unless c names one.
func (s *SMTP) SetTLSConfig(c *tls.Config) error {
	if s.err != nil {
		return s.err
	}
	if c.ServerName == "" {
		c = c.Clone()
		c.ServerName = s.cfg.Host
	}
	return s.client.SetTLSConfig(c)
}

// message builds the MIME message: text/plain, with the HTML body as its alternative.
func message(from string, n *domain.Notification) (*mail.Msg, string, error) {
	m := mail.NewMsg()
	if err := m.From(from); err != nil {
		return nil, "", fmt.Errorf("notifications.email.from: %w", err)
	}
	if err := m.To(n.Recipient); err != nil {
		return nil, "", fmt.Errorf("recipient: %w", err)
	}
	m.Subject(n.Subject)
	m.SetDate()
	domainPart := "localhost"
	if i := strings.LastIndexByte(from, '@'); i >= 0 {
		domainPart = strings.Trim(from[i+1:], "> ")
	}
	id := n.ID + "@" + domainPart
	m.SetMessageIDWithValue(id)
	m.SetGenHeader("X-Notification-Id", n.ID)
	m.SetBodyString(mail.TypeTextPlain, n.Body)
	if n.HTMLBody != "" {
		m.AddAlternativeString(mail.TypeTextHTML, n.HTMLBody)
	}
	return m, "<" + id + ">", nil
}

// Send delivers n to the SMTP server; the provider id is the Message-ID.
func (s *SMTP) Send(ctx context.Context, n *domain.Notification) (string, error) {
	if s.err != nil {
		return "", fmt.Errorf("smtp: %w", s.err)
	}
	m, id, err := message(s.cfg.From, n)
	if err != nil {
		return "", err
	}
	conn, reused, err := s.conn(ctx)
	if err != nil {
		return "", fmt.Errorf("smtp: %w", err)
	}
	err = s.client.SendWithSMTPClient(conn, m)
	if err != nil && reused && isConnCheck(err) {
		_ = s.client.CloseWithSMTPClient(conn) // stale: the server closed it; send once on a new one
		if conn, err = s.dial(ctx); err != nil {
			return "", fmt.Errorf("smtp: %w", err)
		}
		err = s.client.SendWithSMTPClient(conn, m)
	}
	if err != nil {
		_ = s.client.CloseWithSMTPClient(conn)
		return "", fmt.Errorf("smtp: %w", err)
	}
	s.release(conn)
	return id, nil
}

func isConnCheck(err error) bool {
	var se *mail.SendError
	return errors.As(err, &se) && se.Reason == mail.ErrConnCheck
}

// conn takes an idle connection, or dials one.
func (s *SMTP) conn(ctx context.Context) (*smtp.Client, bool, error) {
	now := time.Now()
	s.mu.Lock()
	for len(s.idle) > 0 {
		ic := s.idle[len(s.idle)-1]
		s.idle = s.idle[:len(s.idle)-1]
		if now.Sub(ic.since) < MaxIdleTime {
			s.mu.Unlock()
			return ic.c, true, nil
		}
		go func() { _ = s.client.CloseWithSMTPClient(ic.c) }()
	}
	s.mu.Unlock()
	c, err := s.dial(ctx)
	return c, false, err
}

func (s *SMTP) dial(ctx context.Context) (*smtp.Client, error) {
	return s.client.DialToSMTPClientWithContext(ctx)
}

// release keeps a healthy connection for the next send.
func (s *SMTP) release(c *smtp.Client) {
	s.mu.Lock()
	if len(s.idle) < MaxIdle {
		s.idle = append(s.idle, idleConn{c: c, since: time.Now()})
		s.mu.Unlock()
		return
	}
	s.mu.Unlock()
	_ = s.client.CloseWithSMTPClient(c)
}

// Outbox writes each email as an .eml file into a folder (the embedded default: no
// SMTP server needed; open the files with any mail reader).
type Outbox struct {
	from, dir string
}

var _ ports.Channel = (*Outbox)(nil)

// NewOutbox builds the file outbox.
func NewOutbox(from, dir string) *Outbox { return &Outbox{from: from, dir: dir} }

// Name is email.
func (*Outbox) Name() string { return domain.ChannelEmail }

// Dir is the outbox folder.
func (o *Outbox) Dir() string { return o.dir }

// Send writes <dir>/<notification id>.eml.
func (o *Outbox) Send(_ context.Context, n *domain.Notification) (string, error) {
	m, id, err := message(o.from, n)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(o.dir, 0o750); err != nil {
		return "", fmt.Errorf("outbox: %w", err)
	}
	if err := m.WriteToFile(filepath.Join(o.dir, n.ID+".eml")); err != nil {
		return "", fmt.Errorf("outbox: %w", err)
	}
	return id, nil
}

// NewEmail picks SMTP when a host is configured, else the outbox under dataDir.
func NewEmail(cfg config.NotificationEmail, dataDir string) ports.Channel {
	if cfg.Host != "" {
		return NewSMTP(cfg)
	}
	dir := cfg.OutboxDir
	if dir == "" {
		dir = filepath.Join(dataDir, "outbox")
	}
	return NewOutbox(cfg.From, dir)
}

// errStatus is a provider's refusal.
func errStatus(provider string, code int, body []byte) error {
	msg := strings.TrimSpace(string(body))
	if len(msg) > 300 {
		msg = msg[:300]
	}
	return fmt.Errorf("%s: HTTP %d: %s", provider, code, msg)
}

func unavailable(what string) error { return fmt.Errorf("%s: %w", what, ports.ErrChannelUnavailable) }
