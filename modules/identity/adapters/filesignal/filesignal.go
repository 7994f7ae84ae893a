// Package filesignal tells the processes of one machine that API keys changed (or that
// a customer's tokens were revoked), through a file they share: the embedded mode's way
// to make a revocation by the CLI (another process) take effect at once in
// `commerce serve`, where there is no Redis to carry it (docs/decisions/0011, 0096).
//
// Publish appends the key's prefix as a line to the file; Subscribe watches the file
// with the operating system's notifications (inotify, kqueue, ...) and hands every new
// line to its callback as soon as it is written, long before the CLI has exited.
package filesignal

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/fsnotify/fsnotify"
	"go.uber.org/zap"
)

// FileName is the signal file's name inside the data directory.
const FileName = "api-key-invalidations"

// maxSize is the size past which a publisher starts the file again (revocations are
// rare: this is thousands of them).
const maxSize = 64 << 10

// Signal publishes and watches one signal file.
type Signal struct {
	path string
	log  *zap.Logger
	mu   sync.Mutex // serialises this process's appends
}

// New builds the signal on dir/FileName.
func New(dir string, log *zap.Logger) *Signal {
	return &Signal{path: filepath.Join(dir, FileName), log: log.Named("identity.filesignal")}
}

// Publish appends prefix to the file (creating it, and the directory, when missing).
func (s *Signal) Publish(_ context.Context, prefix string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return fmt.Errorf("identity: signal file: %w", err)
	}
	flags := os.O_CREATE | os.O_WRONLY | os.O_APPEND
	if fi, err := os.Stat(s.path); err == nil && fi.Size() > maxSize {
		flags = os.O_CREATE | os.O_WRONLY | os.O_TRUNC
	}
	f, err := os.OpenFile(s.path, flags, 0o600)
	if err != nil {
		return fmt.Errorf("identity: signal file: %w", err)
	}
	_, werr := f.WriteString(prefix + "\n")
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return fmt.Errorf("identity: signal file: %w", werr)
	}
	return nil
}

// Subscribe calls fn with every prefix appended after the call, from one goroutine,
// until stop is called. The directory is created when missing (it is the data
// directory, which the embedded database lives in anyway).
func (s *Signal) Subscribe(fn func(prefix string)) (func(), error) {
	dir := filepath.Dir(s.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("identity: signal file: %w", err)
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("identity: signal file: %w", err)
	}
	// The directory is watched, not the file: the file may not exist yet, and a
	// publisher may start it again.
	if err := w.Add(dir); err != nil {
		_ = w.Close()
		return nil, fmt.Errorf("identity: signal file: %w", err)
	}
	r := &reader{path: s.path}
	r.offset = r.size() // what was published before this process started is old news
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				if filepath.Clean(ev.Name) != filepath.Clean(s.path) || !ev.Has(fsnotify.Write|fsnotify.Create) {
					continue
				}
				if err := r.readNew(fn); err != nil {
					s.log.Debug("reading the signal file", zap.Error(err))
				}
			case err, ok := <-w.Errors:
				if !ok {
					return
				}
				s.log.Debug("watching the signal file", zap.Error(err))
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			_ = w.Close()
			<-done
		})
	}, nil
}

// reader follows the file: the bytes past offset are new lines.
type reader struct {
	path   string
	offset int64
}

func (r *reader) size() int64 {
	fi, err := os.Stat(r.path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// readNew hands fn the complete lines written since the last call. A file shorter than
// the offset was started again: it is read from its beginning.
func (r *reader) readNew(fn func(string)) error {
	f, err := os.Open(r.path)
	if errors.Is(err, os.ErrNotExist) {
		r.offset = 0
		return nil
	}
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if fi.Size() < r.offset {
		r.offset = 0
	}
	if _, err := f.Seek(r.offset, io.SeekStart); err != nil {
		return err
	}
	br := bufio.NewReader(f)
	for {
		line, err := br.ReadString('\n')
		if err != nil { // io.EOF: a partial line waits for the rest of its write
			return nil
		}
		r.offset += int64(len(line))
		if p := strings.TrimSpace(line); p != "" {
			fn(p)
		}
	}
}
