package localdisk

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

func TestStorage(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "uploads")
	s, err := New(dir, "/uploads/")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	url, err := s.Put(ctx, "a1.png", "image/png", []byte("data"))
	if err != nil || url != "/uploads/a1.png" {
		t.Fatalf("put %s %v", url, err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "a1.png")); err != nil || string(b) != "data" {
		t.Fatalf("file %q %v", b, err)
	}
	for _, bad := range []string{"../x.png", "a/b.png", ".hidden", "", "a b.png"} {
		if _, err := s.Put(ctx, bad, "image/png", nil); err == nil {
			t.Errorf("key %q accepted", bad)
		}
	}
	if err := s.Delete(ctx, "a1.png"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, "a1.png"); err != nil {
		t.Fatalf("deleting a missing file: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("left %d entries (temporary files?)", len(entries))
	}
	if _, err := New("", "/u"); err == nil {
		t.Fatal("empty dir accepted")
	}
}
