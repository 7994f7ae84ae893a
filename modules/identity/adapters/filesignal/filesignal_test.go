package filesignal_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/identity/adapters/filesignal"
)

// A prefix published by one process reaches another's subscriber at once; what was
// published before it subscribed does not; a file started again is read from its top.
func TestSignal(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "var") // created on demand
	ctx := context.Background()
	cli, server := filesignal.New(dir, zap.NewNop()), filesignal.New(dir, zap.NewNop())
	if err := cli.Publish(ctx, "OLDKEY01"); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 16)
	stop, err := server.Subscribe(func(p string) { got <- p })
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	expect := func(want string) {
		t.Helper()
		select {
		case p := <-got:
			if p != want {
				t.Fatalf("got %q, want %q", p, want)
			}
		case <-time.After(2 * time.Second):
			t.Fatalf("%q never arrived", want)
		}
	}
	for _, p := range []string{"AbCd1234", "ZZZZ9999"} {
		if err := cli.Publish(ctx, p); err != nil {
			t.Fatal(err)
		}
		expect(p)
	}
	// Another process starts the file again (as Publish does past its size bound).
	if err := os.WriteFile(filepath.Join(dir, filesignal.FileName), []byte("NEWFILE1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	expect("NEWFILE1")
	select {
	case p := <-got:
		t.Fatalf("unexpected %q", p)
	case <-time.After(50 * time.Millisecond):
	}
	stop()
	stop() // idempotent
	b, err := os.ReadFile(filepath.Join(dir, filesignal.FileName))
	if err != nil || !strings.HasPrefix(string(b), "NEWFILE1\n") {
		t.Fatalf("file %q %v", b, err)
	}
}
