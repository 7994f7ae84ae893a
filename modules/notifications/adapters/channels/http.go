package channels

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gocommerce/commerce/modules/notifications/domain"
	"github.com/gocommerce/commerce/modules/notifications/ports"
	"github.com/gocommerce/commerce/platform/config"
)

// maxAnswer bounds a provider answer read.
const maxAnswer = 1 << 20

// post sends body to url with the content type and the headers set by auth, then
// decodes a 2xx JSON answer into out (nil: ignored).
func post(ctx context.Context, client *http.Client, provider, url, contentType string, body []byte, auth func(*http.Request), out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("%s: %w", provider, err)
	}
	req.Header.Set("Content-Type", contentType)
	auth(req)
	return do(client, req, provider, out)
}

// do sends req and decodes a 2xx JSON answer into out (nil: ignored).
func do(client *http.Client, req *http.Request, provider string, out any) error {
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("%s: %w", provider, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return fmt.Errorf("%s: read answer: %w", provider, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return errStatus(provider, resp.StatusCode, body)
	}
	if out != nil && len(body) > 0 {
		if err := json.Unmarshal(body, out); err != nil {
			return fmt.Errorf("%s: answer: %w", provider, err)
		}
	}
	return nil
}

// SMS sends text messages through a Twilio-style Messages API:
// POST {base}/2010-04-01/Accounts/{sid}/Messages.json (form To, From, Body; basic
// auth with the account sid and auth token).
type SMS struct {
	cfg    config.NotificationSMS
	client *http.Client
}

var _ ports.Channel = (*SMS)(nil)

// NewSMS builds the SMS channel.
func NewSMS(cfg config.NotificationSMS, client *http.Client) *SMS {
	return &SMS{cfg: cfg, client: client}
}

// Name is sms.
func (*SMS) Name() string { return domain.ChannelSMS }

// Send posts the message; the provider id is the message sid.
func (s *SMS) Send(ctx context.Context, n *domain.Notification) (string, error) {
	if s.cfg.AccountSID == "" || s.cfg.AuthToken == "" || s.cfg.From == "" {
		return "", unavailable("sms (notifications.sms.account_sid, auth_token, from)")
	}
	form := url.Values{"To": {n.Recipient}, "From": {s.cfg.From}, "Body": {n.Body}}
	u := strings.TrimRight(s.cfg.BaseURL, "/") + "/2010-04-01/Accounts/" + url.PathEscape(s.cfg.AccountSID) + "/Messages.json"
	var out struct {
		SID string `json:"sid"`
	}
	err := post(ctx, s.client, "sms", u, "application/x-www-form-urlencoded", []byte(form.Encode()),
		func(r *http.Request) { r.SetBasicAuth(s.cfg.AccountSID, s.cfg.AuthToken) }, &out)
	return out.SID, err
}

// Push sends push notifications through FCM HTTP v1:
// POST {base}/v1/projects/{project}/messages:send with a bearer token, minted from the
// service account key (notifications.push.credentials_file) or configured as is.
type Push struct {
	cfg    config.NotificationPush
	client *http.Client
	tokens *tokenSource
	err    error
}

var _ ports.Channel = (*Push)(nil)

// NewPush builds the push channel; a key file that cannot be read makes every attempt
// fail with its error.
func NewPush(cfg config.NotificationPush, client *http.Client) *Push {
	p := &Push{cfg: cfg, client: client}
	if cfg.CredentialsFile != "" {
		sa, err := ReadServiceAccount(cfg.CredentialsFile)
		if err != nil {
			p.err = err
			return p
		}
		if p.cfg.ProjectID == "" {
			p.cfg.ProjectID = sa.ProjectID
		}
		p.tokens = &tokenSource{sa: sa, client: client, now: time.Now}
	}
	return p
}

func (p *Push) token(ctx context.Context) (string, error) {
	if p.tokens != nil {
		return p.tokens.Token(ctx)
	}
	return p.cfg.AccessToken, nil
}

// Name is push.
func (*Push) Name() string { return domain.ChannelPush }

// Send posts the message to the device token (the recipient); the provider id is
// the message name FCM answers.
func (p *Push) Send(ctx context.Context, n *domain.Notification) (string, error) {
	if p.err != nil {
		return "", p.err
	}
	if p.cfg.ProjectID == "" || (p.tokens == nil && p.cfg.AccessToken == "") {
		return "", unavailable("push (notifications.push.credentials_file or project_id and access_token)")
	}
	token, err := p.token(ctx)
	if err != nil {
		return "", err
	}
	data := map[string]string{"notification_id": n.ID}
	for k, v := range n.Metadata {
		if s, ok := v.(string); ok {
			data[k] = s
		}
	}
	body, err := json.Marshal(map[string]any{"message": map[string]any{
		"token":        n.Recipient,
		"notification": map[string]string{"title": n.Subject, "body": n.Body},
		"data":         data,
	}})
	if err != nil {
		return "", fmt.Errorf("push: %w", err)
	}
	u := strings.TrimRight(p.cfg.BaseURL, "/") + "/v1/projects/" + url.PathEscape(p.cfg.ProjectID) + "/messages:send"
	var out struct {
		Name string `json:"name"`
	}
	err = post(ctx, p.client, "push", u, "application/json", body,
		func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+token) }, &out)
	return out.Name, err
}

// SignatureHeader carries the webhook channel's signature (CONTRACT §5's format).
const SignatureHeader = "X-Commerce-Signature"

// Webhook POSTs the notification as JSON to the recipient URL, signed like the
// outbound events: X-Commerce-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">.
type Webhook struct {
	secret string
	client *http.Client
	now    func() time.Time
}

var _ ports.Channel = (*Webhook)(nil)

// NewWebhook builds the webhook channel.
func NewWebhook(secret string, client *http.Client) *Webhook {
	return &Webhook{secret: secret, client: client, now: time.Now}
}

// Name is webhook.
func (*Webhook) Name() string { return domain.ChannelWebhook }

// Sign answers the signature header value of body at t (domain.Sign).
func Sign(secret string, t time.Time, body []byte) string { return domain.Sign(secret, t, body) }

// Send posts {id, type: "notification", created_at, data}; any 2xx is delivered.
func (w *Webhook) Send(ctx context.Context, n *domain.Notification) (string, error) {
	body, err := json.Marshal(map[string]any{
		"id": "evt_" + n.ID, "type": "notification", "created_at": n.CreatedAt.UTC(),
		"data": map[string]any{"id": n.ID, "subject": n.Subject, "body": n.Body, "priority": n.Priority, "metadata": n.Metadata},
	})
	if err != nil {
		return "", fmt.Errorf("webhook: %w", err)
	}
	return "", post(ctx, w.client, "webhook", n.Recipient, "application/json", body, func(r *http.Request) {
		r.Header.Set("User-Agent", "commerce-notifications")
		if w.secret != "" {
			r.Header.Set(SignatureHeader, Sign(w.secret, w.now(), body))
		}
	}, nil)
}

// InApp stores the message for the customer to read: the stored row is the message,
// so an attempt always succeeds (and the notification is delivered at once).
type InApp struct{}

var _ ports.Channel = InApp{}

// Name is in_app.
func (InApp) Name() string { return domain.ChannelInApp }

// Send has nothing to carry.
func (InApp) Send(context.Context, *domain.Notification) (string, error) { return "", nil }

// New builds every channel from the configuration.
func New(cfg *config.Config) []ports.Channel {
	n := cfg.Notifications
	client := &http.Client{Timeout: n.Webhook.Timeout}
	return []ports.Channel{NewEmail(n.Email, cfg.DataDir), NewSMS(n.SMS, client), NewPush(n.Push, client),
		NewWebhook(n.Webhook.Secret, client), InApp{}}
}
