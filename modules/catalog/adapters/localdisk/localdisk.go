// Package localdisk keeps product images as files in a local directory (the default
// image storage); the catalog's HTTP adapter serves that directory under the public URL
// path (uploads.public_url, /uploads by default).
package localdisk

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gocommerce/commerce/modules/catalog/ports"
)

// Storage writes files under Dir and answers URLs under PublicURL.
type Storage struct {
	dir       string
	publicURL string
}

var _ ports.ImageStorage = (*Storage)(nil)

// New builds the storage, creating dir when needed. publicURL is the URL prefix the
// files are served under (e.g. "/uploads" or "https://shop.example/uploads").
func New(dir, publicURL string) (*Storage, error) {
	if dir == "" {
		return nil, errors.New("uploads: directory is empty")
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("uploads: create %s: %w", dir, err)
	}
	return &Storage{dir: dir, publicURL: strings.TrimRight(publicURL, "/")}, nil
}

// Dir is the directory the files live in.
func (s *Storage) Dir() string { return s.dir }

// ValidKey accepts a flat file name: letters, digits, '-', '_' and '.', not starting
// with a dot.
func ValidKey(key string) bool {
	if key == "" || len(key) > 255 || strings.HasPrefix(key, ".") {
		return false
	}
	for _, r := range key {
		if (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (r < '0' || r > '9') && r != '-' && r != '_' && r != '.' {
			return false
		}
	}
	return true
}

// Put writes the file atomically (temporary file, then rename).
func (s *Storage) Put(_ context.Context, key, _ string, data []byte) (string, error) {
	if !ValidKey(key) {
		return "", fmt.Errorf("uploads: invalid key %q", key)
	}
	tmp, err := os.CreateTemp(s.dir, ".upload-*")
	if err != nil {
		return "", fmt.Errorf("uploads: %w", err)
	}
	defer func() { _ = os.Remove(tmp.Name()) }()
	if _, err := tmp.Write(data); err != nil {
		_ = tmp.Close()
		return "", fmt.Errorf("uploads: write: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return "", fmt.Errorf("uploads: write: %w", err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil { // #nosec G302 -- public images are meant to be readable
		return "", fmt.Errorf("uploads: chmod: %w", err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(s.dir, key)); err != nil {
		return "", fmt.Errorf("uploads: rename: %w", err)
	}
	return s.publicURL + "/" + key, nil
}

// Delete removes the file; a missing file is not an error.
func (s *Storage) Delete(_ context.Context, key string) error {
	if !ValidKey(key) {
		return fmt.Errorf("uploads: invalid key %q", key)
	}
	if err := os.Remove(filepath.Join(s.dir, key)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("uploads: delete: %w", err)
	}
	return nil
}
