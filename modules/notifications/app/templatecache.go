package app

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/gocommerce/commerce/modules/notifications/domain"
)

// Templates read to send a message are kept for templateTTL (docs/decisions/0235):
// an order's confirmation and its payment receipt no longer read their template each
// (one statement per message under checkout load). A template this process changes
// or deletes is forgotten once the change has committed; another process's change
// reaches this process's sends within templateTTL. The admin reads (GET, preview,
// update) always read the database.
const templateTTL = 2 * time.Second

// templateCache is the send path's templates by id.
type templateCache struct {
	mu sync.Mutex
	m  map[string]cachedTemplate
}

type cachedTemplate struct {
	t  domain.Template
	at time.Time // when read (the monotonic clock: a fake clock in tests does not keep entries forever)
}

// sendTemplate returns the template to send with: a copy of the kept one while it is
// fresh, else the stored one (ErrTemplateNotFound is not kept).
func (s *Service) sendTemplate(ctx context.Context, id string) (*domain.Template, error) {
	c := &s.templates
	c.mu.Lock()
	e, ok := c.m[id]
	c.mu.Unlock()
	if ok && time.Since(e.at) < templateTTL {
		return cloneTemplate(&e.t), nil
	}
	read := time.Now()
	t, err := s.stores.Templates.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]cachedTemplate{}
	}
	c.m[id] = cachedTemplate{t: *cloneTemplate(t), at: read}
	c.mu.Unlock()
	return t, nil
}

// forgetTemplate drops a kept template once ctx's transaction has committed (at once
// outside one): the next send reads the change.
func (s *Service) forgetTemplate(ctx context.Context, id string) {
	forget := func() {
		s.templates.mu.Lock()
		delete(s.templates.m, id)
		s.templates.mu.Unlock()
	}
	forget() // a send meanwhile reads the old row and may keep it: dropped again below
	s.tx.AfterCommit(ctx, forget)
}

func cloneTemplate(t *domain.Template) *domain.Template {
	c := *t
	c.Variables = slices.Clone(t.Variables)
	return &c
}
