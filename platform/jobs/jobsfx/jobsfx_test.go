package jobsfx

import (
	"testing"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/jobs/asynqjobs"
	"github.com/gocommerce/commerce/platform/jobs/inprocess"
)

func TestProvidePicksInProcessWithoutRedis(t *testing.T) {
	cfg := config.Default()
	b, cleanup, err := Provide(&cfg, zap.NewNop())
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	if b.Name != NameInProcess {
		t.Fatalf("Name = %q", b.Name)
	}
	if _, ok := b.Runner.(*inprocess.Jobs); !ok {
		t.Fatalf("Runner is %T", b.Runner)
	}
	if ProvideEnqueuer(b) != b.Enqueuer || ProvideRegistry(b) != b.Registry {
		t.Fatal("providers do not expose the backend")
	}
}

func TestProvidePicksAsynqWithRedis(t *testing.T) {
	cfg := config.Default()
	cfg.Redis.URL = "redis://127.0.0.1:6379/9" // New does not dial
	b, cleanup, err := Provide(&cfg, zap.NewNop())
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	if b.Name != NameAsynq {
		t.Fatalf("Name = %q", b.Name)
	}
	if _, ok := b.Enqueuer.(*asynqjobs.Jobs); !ok {
		t.Fatalf("Enqueuer is %T", b.Enqueuer)
	}
}

func TestProvideRejectsBadRedisURL(t *testing.T) {
	cfg := config.Default()
	cfg.Redis.URL = "redis://127.0.0.1:6379/x"
	if _, _, err := Provide(&cfg, zap.NewNop()); err == nil {
		t.Fatal("Provide accepted a bad redis.url")
	}
}
