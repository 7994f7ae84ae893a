package jobs_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"go.uber.org/zap"

	customersjobs "github.com/gocommerce/commerce/modules/customers/adapters/jobs"
	"github.com/gocommerce/commerce/platform/jobs"
)

type registry struct {
	handlers map[string]jobs.Handler
	every    map[string]time.Duration
}

func (r *registry) Handle(t string, h jobs.Handler)        { r.handlers[t] = h }
func (r *registry) Every(t string, interval time.Duration) { r.every[t] = interval }

type purger struct {
	n   int64
	err error
}

func (p *purger) PurgeExpiredTokens(context.Context) (int64, error) { return p.n, p.err }

func TestRegister(t *testing.T) {
	t.Parallel()
	r := &registry{handlers: map[string]jobs.Handler{}, every: map[string]time.Duration{}}
	p := &purger{n: 3}
	customersjobs.NewJobs(p, zap.NewNop()).Register(r)
	h := r.handlers["customers:purge_expired_tokens"]
	if h == nil || r.every["customers:purge_expired_tokens"] != time.Hour {
		t.Fatalf("registered %v %v", r.handlers, r.every)
	}
	if err := h(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	p.err = errors.New("db down")
	if err := h(context.Background(), nil); err == nil {
		t.Fatal("store error swallowed (the job must be retried)")
	}
}
