// Package log builds the one zap logger: JSON in production, console in development.
package log

import (
	"context"
	"strings"
	"sync"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/gocommerce/commerce/platform/config"
)

// New builds the logger from config.
func New(cfg *config.Config) (*zap.Logger, error) {
	format := cfg.Log.Format
	if format == "" {
		format = "console"
		if cfg.Production() {
			format = "json"
		}
	}
	var zc zap.Config
	if format == "json" {
		zc = zap.NewProductionConfig()
		zc.EncoderConfig.TimeKey = "ts"
		zc.EncoderConfig.EncodeTime = zapcore.ISO8601TimeEncoder
	} else {
		zc = zap.NewDevelopmentConfig()
		zc.EncoderConfig.EncodeLevel = zapcore.CapitalColorLevelEncoder
	}
	lvl, err := zapcore.ParseLevel(strings.ToLower(cfg.Log.Level))
	if err != nil {
		lvl = zapcore.InfoLevel
	}
	zc.Level = zap.NewAtomicLevelAt(lvl)
	zc.DisableStacktrace = true // panics log their own stack (httpx recovery)
	return zc.Build()
}

// Provide adapts New for wire, returning a cleanup that flushes.
func Provide(cfg *config.Config) (*zap.Logger, func(), error) {
	l, err := New(cfg)
	if err != nil {
		return nil, nil, err
	}
	return l, func() { _ = l.Sync() }, nil
}

type ctxKey struct{}

// WithContext stores a request-scoped logger in ctx.
func WithContext(ctx context.Context, l *zap.Logger) context.Context {
	return context.WithValue(ctx, ctxKey{}, l)
}

// WithFields stores in ctx a logger that is base with fields, built only if something
// asks for it (FromContext): zap's With copies the encoder, which most requests, never
// logging through the context, need not pay for.
func WithFields(ctx context.Context, base *zap.Logger, fields ...zap.Field) context.Context {
	return context.WithValue(ctx, ctxKey{}, &lazyLogger{base: base, fields: fields})
}

// lazyLogger is base.With(fields...), built once on first use.
type lazyLogger struct {
	base   *zap.Logger
	fields []zap.Field
	once   sync.Once
	l      *zap.Logger
}

func (z *lazyLogger) get() *zap.Logger {
	z.once.Do(func() { z.l = z.base.With(z.fields...) })
	return z.l
}

// FromContext returns the request-scoped logger, or fallback.
func FromContext(ctx context.Context, fallback *zap.Logger) *zap.Logger {
	switch l := ctx.Value(ctxKey{}).(type) {
	case *zap.Logger:
		return l
	case *lazyLogger:
		return l.get()
	}
	return fallback
}
