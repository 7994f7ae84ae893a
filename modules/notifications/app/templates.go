package app

import (
	"context"
	"errors"
	"time"

	"github.com/gocommerce/commerce/modules/notifications/api"
	"github.com/gocommerce/commerce/modules/notifications/domain"
	"github.com/gocommerce/commerce/platform/apperr"
)

func asFields(err error) (map[string]string, bool) {
	var e *apperr.Error
	if errors.As(err, &e) && len(e.Fields) > 0 {
		return e.Fields, true
	}
	return nil, false
}

// Templates lists templates (channel and category filter when set).
func (s *Service) Templates(ctx context.Context, channel, category string) ([]api.Template, error) {
	ts, err := s.stores.Templates.List(ctx, channel, category)
	if err != nil {
		return nil, err
	}
	return resources(ts, TemplateResource), nil
}

// Template returns one template.
func (s *Service) Template(ctx context.Context, id string) (api.Template, error) {
	t, err := s.stores.Templates.Get(ctx, id)
	if err != nil {
		return api.Template{}, err
	}
	return TemplateResource(t), nil
}

// CreateTemplate stores a new (non-system) template.
func (s *Service) CreateTemplate(ctx context.Context, in domain.TemplateInput) (api.Template, error) {
	now := s.clock.Now()
	t := &domain.Template{CreatedAt: now, UpdatedAt: now}
	if err := t.Apply(in, true); err != nil {
		return api.Template{}, err
	}
	if err := s.tx.InTx(ctx, func(ctx context.Context) error {
		s.forgetTemplate(ctx, t.ID)
		return s.stores.Templates.Create(ctx, t)
	}); err != nil {
		return api.Template{}, err
	}
	return TemplateResource(t), nil
}

// UpdateTemplate changes the given fields of a template (system ones too).
func (s *Service) UpdateTemplate(ctx context.Context, id string, in domain.TemplateInput) (api.Template, error) {
	var out *domain.Template
	err := s.tx.InTx(ctx, func(ctx context.Context) error {
		t, err := s.stores.Templates.Get(ctx, id)
		if err != nil {
			return err
		}
		in.ID, in.Channel = nil, nil
		if err := t.Apply(in, false); err != nil {
			return err
		}
		t.UpdatedAt = s.clock.Now()
		out = t
		s.forgetTemplate(ctx, id)
		return s.stores.Templates.Update(ctx, t)
	})
	if err != nil {
		return api.Template{}, err
	}
	return TemplateResource(out), nil
}

// DeleteTemplate removes a template; a system template is refused.
func (s *Service) DeleteTemplate(ctx context.Context, id string) error {
	return s.tx.InTx(ctx, func(ctx context.Context) error {
		t, err := s.stores.Templates.Get(ctx, id)
		if err != nil {
			return err
		}
		if t.IsSystem {
			return domain.ErrSystemTemplate.WithMessage("Template %s is a system template and cannot be deleted", id)
		}
		s.forgetTemplate(ctx, id)
		return s.stores.Templates.Delete(ctx, id)
	})
}

// Preview is a rendered template.
type Preview struct {
	Subject, Body, HTMLBody string
	MissingVariables        []string
	RenderedAt              time.Time
}

// PreviewTemplate renders a template with variables and names the placeholders the
// variables did not give.
func (s *Service) PreviewTemplate(ctx context.Context, id string, vars map[string]any) (Preview, error) {
	t, err := s.stores.Templates.Get(ctx, id)
	if err != nil {
		return Preview{}, err
	}
	r, err := domain.Render(t.Subject, t.Body, t.HTMLBody, s.variables(vars))
	if err != nil {
		return Preview{}, err
	}
	return Preview{Subject: r.Subject, Body: r.Body, HTMLBody: r.HTMLBody, MissingVariables: r.Missing, RenderedAt: s.clock.Now()}, nil
}
