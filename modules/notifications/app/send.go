package app

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/gocommerce/commerce/modules/notifications/api"
	"github.com/gocommerce/commerce/modules/notifications/domain"
	"github.com/gocommerce/commerce/modules/notifications/ports"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/ids"
)

// SendInput is POST /notifications: channel and recipient required; subject required
// for email (unless the template gives one); body required without a template.
type SendInput struct {
	Channel, Recipient, Subject, Body, HTMLBody, Priority, TemplateID string
	TemplateVariables                                                 map[string]any
	Metadata                                                          map[string]any
	ScheduledAt                                                       *time.Time
	// CustomerID links the notification to a customer (the store's own messages).
	CustomerID string
	// DedupeKey sends the message once per key (the store's own messages).
	DedupeKey string
}

// build checks in and renders it into a new pending notification.
func (s *Service) build(ctx context.Context, in SendInput, tpl *domain.Template) (*domain.Notification, error) {
	return s.buildWith(ctx, in, tpl, nil)
}

// buildWith is build with the template already compiled (bulk: once per batch).
func (s *Service) buildWith(ctx context.Context, in SendInput, tpl *domain.Template, compiled *domain.Compiled) (*domain.Notification, error) {
	bad := domain.Problems{}
	if in.Channel == "" {
		bad["channel"] = "is required"
	} else if !domain.Valid(domain.Channels, in.Channel) {
		bad["channel"] = "must be one of: " + strings.Join(domain.Channels, ", ")
	}
	recipient, problem := domain.NormalizeRecipient(in.Channel, in.Recipient)
	if problem != "" {
		bad["recipient"] = problem
	}
	if in.Priority == "" {
		in.Priority = domain.PriorityNormal
	} else if !domain.Valid(domain.Priorities, in.Priority) {
		bad["priority"] = "must be one of: " + strings.Join(domain.Priorities, ", ")
	}
	now := s.clock.Now()
	if in.ScheduledAt != nil && in.ScheduledAt.After(now.AddDate(1, 0, 0)) {
		bad["scheduled_at"] = "must be within a year"
	}
	if tpl == nil && in.TemplateID != "" {
		t, err := s.sendTemplate(ctx, in.TemplateID)
		switch {
		case errors.Is(err, domain.ErrTemplateNotFound):
			bad["template_id"] = "does not exist"
		case err != nil:
			return nil, err
		default:
			tpl = t
		}
	}
	subject, body, html := in.Subject, in.Body, in.HTMLBody
	if tpl != nil {
		if in.Channel != "" && tpl.Channel != in.Channel {
			bad["template_id"] = "is a " + tpl.Channel + " template"
		}
		if subject == "" {
			subject = tpl.Subject
		}
		if body == "" {
			body = tpl.Body
		}
		if html == "" {
			html = tpl.HTMLBody
		}
		if compiled == nil || in.Subject != "" || in.Body != "" || in.HTMLBody != "" {
			c, err := domain.Compile(subject, body, html)
			if err != nil {
				return nil, err
			}
			compiled = c
		}
		r, err := compiled.Render(s.variables(in.TemplateVariables))
		if err != nil {
			return nil, err
		}
		subject, body, html = r.Subject, r.Body, r.HTMLBody
	}
	if in.Channel == domain.ChannelEmail && strings.TrimSpace(subject) == "" {
		bad["subject"] = "is required for email"
	}
	if strings.TrimSpace(body) == "" {
		bad["body"] = "is required without a template"
	}
	if len(subject) > domain.MaxSubject {
		bad["subject"] = "is too long"
	}
	if len(body) > domain.MaxBody || len(html) > domain.MaxBody {
		bad["body"] = "is too long"
	}
	if err := bad.Err(); err != nil {
		return nil, err
	}
	if in.Metadata == nil {
		in.Metadata = map[string]any{}
	}
	n := &domain.Notification{
		ID: s.newID(), Channel: in.Channel, Recipient: recipient, Subject: subject, Body: body, HTMLBody: html, Priority: in.Priority,
		Status: domain.StatusPending, MaxAttempts: s.settings.MaxAttempts, Metadata: in.Metadata, CustomerID: in.CustomerID,
		DedupeKey: in.DedupeKey, CreatedAt: now, UpdatedAt: now,
	}
	if tpl != nil {
		n.TemplateID = tpl.ID
	}
	if in.ScheduledAt != nil {
		at := in.ScheduledAt.UTC()
		n.ScheduledAt = &at
		if at.After(now) {
			n.NextAttemptAt = &at
		}
	}
	return n, nil
}

// variables adds the shop's own variables under the caller's.
func (s *Service) variables(v map[string]any) map[string]any {
	out := map[string]any{"shop_name": s.settings.ShopName, "shop_url": s.settings.ShopURL}
	for k, val := range v {
		out[k] = val
	}
	return out
}

// Create is POST /notifications: a pending notification, delivered through the jobs
// port after commit (at scheduled_at when it is later). It is linked to the customer it
// addresses (an in_app recipient is a customer id; an email recipient is looked up),
// so the customer reads it and their data export holds it.
func (s *Service) Create(ctx context.Context, in SendInput) (api.Notification, error) {
	n, err := s.build(ctx, in, nil)
	if err != nil {
		return api.Notification{}, err
	}
	if err := s.link(ctx, n); err != nil {
		return api.Notification{}, err
	}
	err = s.tx.InTx(ctx, func(ctx context.Context) error {
		if err := s.stores.Notifications.Create(ctx, n); err != nil {
			return err
		}
		s.enqueue(ctx, n)
		return nil
	})
	return ToResource(n), err
}

// link sets the customer a notification addresses, when one is known.
func (s *Service) link(ctx context.Context, n *domain.Notification) error {
	var c ports.Customer
	var err error
	switch n.Channel {
	case domain.ChannelInApp:
		if !ids.Valid(n.Recipient) {
			return nil
		}
		c, err = s.customers.Customer(ctx, n.Recipient)
	case domain.ChannelEmail:
		c, err = s.customers.CustomerByEmail(ctx, n.Recipient)
	default:
		return nil
	}
	var ae *apperr.Error
	switch {
	case err == nil:
		n.CustomerID = c.ID
	case errors.As(err, &ae) && ae.Kind == apperr.NotFound:
	default:
		return err
	}
	return nil
}

// Send implements api.Notifications for other modules and the store's own messages:
// a Message with a template (or a subject and body), sent once per DedupeKey when the
// caller gives one. A marketing message to a customer who does not accept marketing
// is dropped (zero Notification, nil error).
func (s *Service) Send(ctx context.Context, m api.Message) (api.Notification, error) {
	n, err := s.send(ctx, m, "")
	if err != nil || n == nil {
		return api.Notification{}, err
	}
	return ToResource(n), nil
}

func (s *Service) send(ctx context.Context, m api.Message, key string) (*domain.Notification, error) {
	if m.Marketing && m.CustomerID != "" {
		c, err := s.customers.Customer(ctx, m.CustomerID)
		if err != nil {
			return nil, err
		}
		if !c.AcceptsMarketing {
			return nil, nil
		}
	}
	if m.Channel == "" {
		m.Channel = domain.ChannelEmail
	}
	n, err := s.build(ctx, SendInput{Channel: m.Channel, Recipient: m.Recipient, Subject: m.Subject, Body: m.Body,
		Priority: m.Priority, TemplateID: m.TemplateID, TemplateVariables: m.Variables, Metadata: m.Metadata,
		CustomerID: m.CustomerID, DedupeKey: key}, nil)
	if err != nil {
		return nil, err
	}
	// One statement: no transaction of its own (it joins ctx's, if any); the send is
	// queued once the row has committed.
	if key == "" {
		err = s.stores.Notifications.Create(ctx, n)
	} else {
		var created bool
		if created, err = s.stores.Notifications.CreateOnce(ctx, n); !created {
			n = nil
		}
	}
	if err != nil || n == nil {
		return nil, err
	}
	s.enqueue(ctx, n)
	return n, nil
}

// GetQuery is GET /notifications/{id}.
type GetQuery struct {
	ID string
	// CustomerID limits the read to that customer's notifications (a customer caller).
	CustomerID         string
	Attempts, Template bool
}

// Get returns a notification with what include asked for.
func (s *Service) Get(ctx context.Context, q GetQuery) (api.Notification, error) {
	n, err := s.stores.Notifications.Get(ctx, q.ID)
	if err != nil {
		return api.Notification{}, err
	}
	if q.CustomerID != "" && n.CustomerID != q.CustomerID {
		return api.Notification{}, domain.ErrNotificationNotFound
	}
	out := ToResource(n)
	if q.Attempts {
		as, err := s.stores.Notifications.Attempts(ctx, n.ID)
		if err != nil {
			return api.Notification{}, err
		}
		list := resources(as, func(a domain.Attempt) api.Attempt {
			return api.Attempt{Channel: a.Channel, AttemptedAt: a.AttemptedAt, Status: a.Status, Error: nullable(a.Error)}
		})
		out.Attempts = &list
	}
	if q.Template && n.TemplateID != "" {
		t, err := s.stores.Templates.Get(ctx, n.TemplateID)
		switch {
		case err == nil:
			r := TemplateResource(t)
			out.Template = &r
		case !errors.Is(err, domain.ErrTemplateNotFound):
			return api.Notification{}, err
		}
	}
	return out, nil
}

// List returns a filtered page of notifications.
func (s *Service) List(ctx context.Context, f ports.Filter, offset, limit int) ([]api.Notification, int64, error) {
	ns, total, err := s.stores.Notifications.List(ctx, f, offset, limit)
	if err != nil {
		return nil, 0, err
	}
	return resources(ns, ToResource), total, nil
}

// StatusChange is the answer of retry and cancel.
type StatusChange struct {
	ID           string
	Status       string
	AttemptCount int
	Message      string
}

// Retry moves a failed notification to pending and queues its attempt now.
func (s *Service) Retry(ctx context.Context, id, customerID string) (StatusChange, error) {
	var out *domain.Notification
	err := s.tx.InTx(ctx, func(ctx context.Context) error {
		n, err := s.change(ctx, id, customerID, func(n *domain.Notification) error { return n.Retry(s.clock.Now()) })
		if err != nil {
			return err
		}
		out = n
		s.enqueue(ctx, n)
		return nil
	})
	if err != nil {
		return StatusChange{}, err
	}
	return StatusChange{ID: out.ID, Status: out.Status, AttemptCount: out.AttemptCount, Message: "Notification queued for retry"}, nil
}

// Cancel stops a notification not yet sent.
func (s *Service) Cancel(ctx context.Context, id, customerID string) (StatusChange, error) {
	var out *domain.Notification
	err := s.tx.InTx(ctx, func(ctx context.Context) error {
		n, err := s.change(ctx, id, customerID, func(n *domain.Notification) error { return n.Cancel(s.clock.Now()) })
		out = n
		return err
	})
	if err != nil {
		return StatusChange{}, err
	}
	return StatusChange{ID: out.ID, Status: out.Status, AttemptCount: out.AttemptCount, Message: "Notification cancelled"}, nil
}

func (s *Service) change(ctx context.Context, id, customerID string, fn func(*domain.Notification) error) (*domain.Notification, error) {
	n, err := s.stores.Notifications.Update(ctx, id, s.clock.Now(), func(n *domain.Notification) error {
		if customerID != "" && n.CustomerID != customerID {
			return domain.ErrNotificationNotFound
		}
		return fn(n)
	})
	if errors.Is(err, ports.ErrStale) {
		return nil, domain.ErrInvalidTransition.WithMessage("The notification is being sent; try again")
	}
	return n, err
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// ToResource shapes a notification for the API.
func ToResource(n *domain.Notification) api.Notification {
	meta := n.Metadata
	if meta == nil {
		meta = map[string]any{}
	}
	out := api.Notification{
		ID: n.ID, Channel: n.Channel, Recipient: n.Recipient, Subject: n.Subject, Body: n.Body, HTMLBody: n.HTMLBody,
		Priority: n.Priority, Status: n.Status, AttemptCount: n.AttemptCount, MaxAttempts: n.MaxAttempts,
		ErrorMessage: nullable(n.ErrorMessage), Metadata: meta, TemplateID: nullable(n.TemplateID), CustomerID: nullable(n.CustomerID),
		BatchID: nullable(n.BatchID), ScheduledAt: n.ScheduledAt, SentAt: n.SentAt, DeliveredAt: n.DeliveredAt,
		CreatedAt: n.CreatedAt, UpdatedAt: n.UpdatedAt,
	}
	if n.Status == domain.StatusFailed {
		out.NextRetryAt = n.NextAttemptAt
	}
	return out
}

// TemplateResource shapes a template for the API.
func TemplateResource(t *domain.Template) api.Template {
	vars := t.Variables
	if vars == nil {
		vars = []string{}
	}
	return api.Template{ID: t.ID, Name: t.Name, Channel: t.Channel, Category: t.Category, Subject: t.Subject, Body: t.Body,
		HTMLBody: t.HTMLBody, Variables: vars, HasHTML: t.HasHTML(), IsSystem: t.IsSystem, CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt}
}
