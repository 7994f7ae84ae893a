package jobsfx

import (
	"reflect"
	"testing"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/jobs/asynqjobs"
	"github.com/gocommerce/commerce/platform/jobs/inprocess"
)

// Without redis.url the in-process runner serves every port; with one, asynq does.
func TestProvidePicksTheBackend(t *testing.T) {
	for _, c := range []struct {
		redisURL, name string
		backend        any
	}{
		{"", NameInProcess, (*inprocess.Jobs)(nil)},
		{"redis://127.0.0.1:6379/9", NameAsynq, (*asynqjobs.Jobs)(nil)}, // New does not dial
	} {
		cfg := config.Default()
		cfg.Redis.URL = c.redisURL
		b, cleanup, err := Provide(&cfg, zap.NewNop())
		if err != nil {
			t.Fatal(err)
		}
		defer cleanup()
		want := reflect.TypeOf(c.backend)
		if b.Name != c.name || reflect.TypeOf(b.Runner) != want || reflect.TypeOf(b.Enqueuer) != want {
			t.Fatalf("Name %q, Runner %T, Enqueuer %T; want %q and %v", b.Name, b.Runner, b.Enqueuer, c.name, want)
		}
		if ProvideEnqueuer(b) != b.Enqueuer || ProvideRegistry(b) != b.Registry {
			t.Fatal("providers do not expose the backend")
		}
	}
}

func TestProvideRejectsBadRedisURL(t *testing.T) {
	cfg := config.Default()
	cfg.Redis.URL = "redis://127.0.0.1:6379/x"
	if _, _, err := Provide(&cfg, zap.NewNop()); err == nil {
		t.Fatal("Provide accepted a bad redis.url")
	}
}
