// Package channels holds the delivery channels of the notifications module, each a
// real client of its provider: email over SMTP (wneessen/go-mail) or, with no SMTP
// host configured, into .eml files of a local outbox; SMS through a Twilio-style
// Messages API; push through Firebase Cloud Messaging HTTP v1; webhook as a signed
// HTTP POST; and in_app, stored for the customer to read.
package channels

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/wneessen/go-mail"

	"github.com/gocommerce/commerce/modules/notifications/domain"
	"github.com/gocommerce/commerce/modules/notifications/ports"
	"github.com/gocommerce/commerce/platform/config"
)

// SMTP sends email through an SMTP server.
type SMTP struct {
	cfg config.NotificationEmail
}

var _ ports.Channel = (*SMTP)(nil)

// NewSMTP builds the SMTP channel.
func NewSMTP(cfg config.NotificationEmail) *SMTP { return &SMTP{cfg: cfg} }

// Name is email.
func (*SMTP) Name() string { return domain.ChannelEmail }

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
	m, id, err := message(s.cfg.From, n)
	if err != nil {
		return "", err
	}
	opts := []mail.Option{mail.WithPort(s.cfg.Port), mail.WithTimeout(s.cfg.Timeout)}
	switch s.cfg.TLS {
	case "tls":
		opts = append(opts, mail.WithSSL())
	case "mandatory_starttls":
		opts = append(opts, mail.WithTLSPolicy(mail.TLSMandatory))
	case "none":
		opts = append(opts, mail.WithTLSPolicy(mail.NoTLS))
	default:
		opts = append(opts, mail.WithTLSPolicy(mail.TLSOpportunistic))
	}
	if s.cfg.Username != "" {
		opts = append(opts, mail.WithSMTPAuth(mail.SMTPAuthPlain), mail.WithUsername(s.cfg.Username),
			mail.WithPassword(s.cfg.Password))
	}
	c, err := mail.NewClient(s.cfg.Host, opts...)
	if err != nil {
		return "", fmt.Errorf("smtp: %w", err)
	}
	if err := c.DialAndSendWithContext(ctx, m); err != nil {
		return "", fmt.Errorf("smtp: %w", err)
	}
	return id, nil
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
