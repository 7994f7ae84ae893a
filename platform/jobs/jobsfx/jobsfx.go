// Package jobsfx picks the jobs adapter for the configuration and provides it to
// wire: Asynq when redis.url is set, the in-process runner otherwise (embedded mode).
package jobsfx

import (
	"fmt"

	"github.com/google/wire"
	"go.uber.org/zap"

	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/jobs"
	"github.com/gocommerce/commerce/platform/jobs/asynqjobs"
	"github.com/gocommerce/commerce/platform/jobs/inprocess"
)

// Backend names.
const (
	NameAsynq     = "asynq"
	NameInProcess = "inprocess"
)

// Backend is the chosen adapter, seen through the three roles of the jobs port.
type Backend struct {
	Enqueuer jobs.Enqueuer
	Registry jobs.Registry
	Runner   jobs.Runner
	Name     string // NameAsynq or NameInProcess
}

// Provide returns the Asynq backend when cfg.Redis.URL is set and the in-process one
// otherwise, with a cleanup that closes the Redis connection (a no-op in process).
// With Asynq, `serve` only enqueues and `commerce worker` calls Runner.Run; in
// process, `serve` calls Runner.Run itself.
func Provide(cfg *config.Config, log *zap.Logger) (*Backend, func(), error) {
	if cfg.Redis.URL != "" {
		j, cleanup, err := asynqjobs.New(cfg, log)
		if err != nil {
			return nil, nil, fmt.Errorf("jobs: %w", err)
		}
		return &Backend{Enqueuer: j, Registry: j, Runner: j, Name: NameAsynq}, cleanup, nil
	}
	j := inprocess.New(cfg, log)
	return &Backend{Enqueuer: j, Registry: j, Runner: j, Name: NameInProcess}, func() {}, nil
}

// ProvideEnqueuer exposes the backend's Enqueuer to the use cases.
func ProvideEnqueuer(b *Backend) jobs.Enqueuer { return b.Enqueuer }

// ProvideRegistry exposes the backend's Registry to the modules.
func ProvideRegistry(b *Backend) jobs.Registry { return b.Registry }

// ProviderSet provides *Backend, jobs.Enqueuer and jobs.Registry.
var ProviderSet = wire.NewSet(Provide, ProvideEnqueuer, ProvideRegistry)
