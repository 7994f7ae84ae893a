package log

import (
	"context"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"
)

// WithFields: the logger from the context carries the fields, is built once, and
// FromContext falls back when the context has none.
func TestWithFields(t *testing.T) {
	core, logs := observer.New(zapcore.InfoLevel)
	ctx := WithFields(context.Background(), zap.New(core), zap.String("request_id", "req_1"))
	l := FromContext(ctx, nil)
	if l == nil || FromContext(ctx, nil) != l {
		t.Fatal("FromContext did not return one logger for the context")
	}
	l.Info("hello")
	entries := logs.All()
	if len(entries) != 1 || entries[0].ContextMap()["request_id"] != "req_1" {
		t.Fatalf("logged %+v, want one entry with request_id req_1", entries)
	}
	fallback := zap.NewNop()
	if FromContext(context.Background(), fallback) != fallback {
		t.Fatal("no fallback for a context without a logger")
	}
	plain := zap.NewNop()
	if FromContext(WithContext(context.Background(), plain), nil) != plain {
		t.Fatal("WithContext's logger not returned")
	}
}
