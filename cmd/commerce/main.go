// Command commerce is the one binary: the HTTP API, the background worker, migrations
// and the operator CLI.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/gocommerce/commerce/platform/config"
)

func main() {
	tuneRuntime()
	if err := newRootCmd().Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

type rootOpts struct{ configPath string }

func newRootCmd() *cobra.Command {
	opts := &rootOpts{}
	root := &cobra.Command{
		Use:           "commerce",
		Short:         "Commerce backend: JSON REST API, worker and operator CLI",
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version,
	}
	root.PersistentFlags().StringVar(&opts.configPath, "config", "", "YAML configuration file (or COMMERCE_CONFIG)")
	root.AddCommand(
		newServeCmd(opts),
		newWorkerCmd(opts),
		newMigrateCmd(opts),
		newAPIKeyCmd(opts),
		newAdminCmd(opts),
		newSeedCmd(opts),
	)
	return root
}

// load reads the configuration and assembles the app.
func (o *rootOpts) load() (*App, func(), error) {
	cfg, err := config.Load(o.configPath)
	if err != nil {
		return nil, nil, err
	}
	if err := cfg.EnsureJWTSecret(); err != nil {
		return nil, nil, err
	}
	tuneProfiling(cfg)
	return initApp(cfg)
}

// withApp runs fn with an assembled app, migrating first in embedded mode so that the
// CLI works on a fresh machine too.
func (o *rootOpts) withApp(fn func(ctx context.Context, a *App) error) error {
	return o.run(shortCtx, func(ctx context.Context, a *App) error {
		if a.Cfg.Embedded() {
			if err := a.Migrate(ctx); err != nil {
				return err
			}
		}
		return fn(ctx, a)
	})
}

// run assembles the app and runs fn with it and a context from newCtx, then cleans up.
func (o *rootOpts) run(newCtx func() (context.Context, context.CancelFunc), fn func(ctx context.Context, a *App) error) error {
	a, cleanup, err := o.load()
	if err != nil {
		return err
	}
	defer cleanup()
	ctx, cancel := newCtx()
	defer cancel()
	return fn(ctx, a)
}

// appCmd is a command that runs fn with an assembled app (see withApp), writing to the
// command's output.
func (o *rootOpts) appCmd(use, short string, args cobra.PositionalArgs, fn func(ctx context.Context, a *App, w io.Writer, args []string) error) *cobra.Command {
	return &cobra.Command{
		Use:   use,
		Short: short,
		Args:  args,
		RunE: func(c *cobra.Command, args []string) error {
			return o.withApp(func(ctx context.Context, a *App) error { return fn(ctx, a, c.OutOrStdout(), args) })
		},
	}
}

// signalContext ends on SIGINT or SIGTERM, or with parent (the command's context: tests
// stop a server they started through the CLI by cancelling it).
func signalContext(parent context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
}

// untilSignal is a command that runs one long-lived part of the app until SIGINT or
// SIGTERM.
func (o *rootOpts) untilSignal(use, short string, run func(a *App, ctx context.Context) error) *cobra.Command {
	return &cobra.Command{
		Use:   use,
		Short: short,
		RunE: func(cmd *cobra.Command, _ []string) error {
			untilSignal := func() (context.Context, context.CancelFunc) { return signalContext(cmd.Context()) }
			return o.run(untilSignal, func(ctx context.Context, a *App) error { return run(a, ctx) })
		},
	}
}

func newServeCmd(o *rootOpts) *cobra.Command {
	return o.untilSignal("serve", "Serve the HTTP API (in embedded mode also runs background jobs)", (*App).Serve)
}

func newWorkerCmd(o *rootOpts) *cobra.Command {
	return o.untilSignal("worker", "Run the Asynq workers, the periodic scheduler and the outbox relay (needs Redis)", (*App).Work)
}

func newMigrateCmd(o *rootOpts) *cobra.Command {
	cmd := &cobra.Command{Use: "migrate", Short: "Database migrations"}
	run := func(name string, f func(ctx context.Context, a *App) ([]string, error)) *cobra.Command {
		return &cobra.Command{
			Use:   name,
			Short: map[string]string{"up": "Apply all pending migrations", "down": "Roll back the latest migration", "status": "List migrations and their state"}[name],
			Args:  cobra.NoArgs,
			RunE: func(c *cobra.Command, _ []string) error {
				return o.run(shortCtx, func(ctx context.Context, a *App) error {
					lines, err := f(ctx, a)
					for _, l := range lines {
						fmt.Fprintln(c.OutOrStdout(), l)
					}
					if err == nil && len(lines) == 0 && name != "status" {
						fmt.Fprintln(c.OutOrStdout(), "nothing to do")
					}
					return err
				})
			},
		}
	}
	cmd.AddCommand(
		run("up", func(ctx context.Context, a *App) ([]string, error) { return a.Migrator.Up(ctx) }),
		run("down", func(ctx context.Context, a *App) ([]string, error) { return a.Migrator.Down(ctx) }),
		run("status", func(ctx context.Context, a *App) ([]string, error) { return a.Migrator.Status(ctx) }),
	)
	return cmd
}

func newSeedCmd(o *rootOpts) *cobra.Command {
	return o.appCmd("seed", "Load demo data", nil, func(ctx context.Context, a *App, w io.Writer, _ []string) error {
		return seed(ctx, a, w)
	})
}

// tuneRuntime sets GOGC=200 and a soft memory limit (GOMEMLIMIT=104MiB) where the
// operator has not chosen them: fewer collections under load (5-15% less CPU per
// request, docs/performance.md) while the limit keeps the heap within the memory budget
// (150 MB of RSS: the limit counts the Go runtime's memory, not the 40 MB of the binary
// mapped from its file, and 32 concurrent statistics reports reached 157 MB with 128);
// the server goes back to GOGC=50 and returns freed memory once it is idle
// (platform/httpx). GOGC=400 was a little faster still, but the heap it leaves
// fragmented after a busy period cost 5 MB more idle RSS.
func tuneRuntime() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(104 << 20)
	}
}

// tuneProfiling turns the heap profiler off when nothing can read its profile (no
// http.pprof_addr), as the Go linker does for a program that does not link pprof. The
// profiler samples one allocation per 512 KB and records each sampled call stack in a
// table kept for the process's life: after a busy period, a couple of MB of resident
// memory no one asked for (docs/performance.md, idle RSS).
func tuneProfiling(cfg *config.Config) {
	if cfg.HTTP.PprofAddr == "" {
		runtime.MemProfileRate = 0
	}
}
