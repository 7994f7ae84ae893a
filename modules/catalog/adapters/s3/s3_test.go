package s3

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestSignatureVector checks the signer against AWS's documented example (GET Object
// with a Range header, "Signature Calculations for the Authorization Header:
// Transferring Payload in a Single Chunk").
func TestSignatureVector(t *testing.T) {
	t.Parallel()
	s, err := New(Config{
		Endpoint: "https://s3.amazonaws.com", Bucket: "examplebucket", Region: "us-east-1",
		AccessKeyID: "AKIAIOSFODNN7EXAMPLE", SecretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
	})
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, "https://examplebucket.s3.amazonaws.com/test.txt", http.NoBody)
	req.Header.Set("Range", "bytes=0-9")
	empty := sha256.Sum256(nil)
	s.sign(req, hex.EncodeToString(empty[:]), time.Date(2013, 5, 24, 0, 0, 0, 0, time.UTC))
	want := "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request," +
		"SignedHeaders=host;range;x-amz-content-sha256;x-amz-date," +
		"Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"
	if got := req.Header.Get("Authorization"); got != want {
		t.Fatalf("Authorization\n got %s\nwant %s", got, want)
	}
}

// fakeS3 stores objects and checks each request's signature headers.
type fakeS3 struct {
	mu      sync.Mutex
	objects map[string][]byte
	types   map[string]string
	t       *testing.T
}

var authShape = regexp.MustCompile(`^AWS4-HMAC-SHA256 Credential=AKID/\d{8}/eu-west-1/s3/aws4_request,SignedHeaders=([a-z0-9;-]+),Signature=[0-9a-f]{64}$`)

func (f *fakeS3) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	m := authShape.FindStringSubmatch(r.Header.Get("Authorization"))
	sum := sha256.Sum256(body)
	switch {
	case m == nil:
		f.t.Errorf("Authorization %q", r.Header.Get("Authorization"))
		w.WriteHeader(http.StatusForbidden)
		return
	case !strings.Contains(m[1], "host") || !strings.Contains(m[1], "x-amz-date") || !strings.Contains(m[1], "x-amz-content-sha256"):
		f.t.Errorf("signed headers %q", m[1])
	case r.Header.Get("X-Amz-Content-Sha256") != hex.EncodeToString(sum[:]):
		f.t.Errorf("payload hash %q", r.Header.Get("X-Amz-Content-Sha256"))
	case !regexp.MustCompile(`^\d{8}T\d{6}Z$`).MatchString(r.Header.Get("X-Amz-Date")):
		f.t.Errorf("x-amz-date %q", r.Header.Get("X-Amz-Date"))
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	switch r.Method {
	case http.MethodPut:
		f.objects[r.URL.Path] = body
		f.types[r.URL.Path] = r.Header.Get("Content-Type")
		w.WriteHeader(http.StatusOK)
	case http.MethodDelete:
		delete(f.objects, r.URL.Path)
		w.WriteHeader(http.StatusNoContent)
	default:
		w.WriteHeader(http.StatusMethodNotAllowed)
	}
}

func TestPutAndDelete(t *testing.T) {
	t.Parallel()
	fake := &fakeS3{objects: map[string][]byte{}, types: map[string]string{}, t: t}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	s, err := New(Config{Endpoint: srv.URL, Bucket: "media", Region: "eu-west-1", AccessKeyID: "AKID", SecretAccessKey: "secret"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	url, err := s.Put(ctx, "abc.png", "image/png", []byte("\x89PNG data"))
	if err != nil {
		t.Fatal(err)
	}
	if url != srv.URL+"/media/abc.png" {
		t.Fatalf("url %s", url)
	}
	if string(fake.objects["/media/abc.png"]) != "\x89PNG data" || fake.types["/media/abc.png"] != "image/png" {
		t.Fatalf("stored %v", fake.objects)
	}
	if err := s.Delete(ctx, "abc.png"); err != nil {
		t.Fatal(err)
	}
	if len(fake.objects) != 0 {
		t.Fatalf("not deleted: %v", fake.objects)
	}
	if err := s.Delete(ctx, "missing.png"); err != nil {
		t.Fatalf("deleting a missing object: %v", err)
	}

	// A public URL prefix (CDN) and a refusing server.
	cdn, _ := New(Config{Endpoint: srv.URL, Bucket: "media", Region: "eu-west-1", AccessKeyID: "AKID", SecretAccessKey: "secret", PublicURL: "https://cdn.example/img/"})
	if u, err := cdn.Put(ctx, "k.jpg", "image/jpeg", []byte("x")); err != nil || u != "https://cdn.example/img/k.jpg" {
		t.Fatalf("cdn url %s %v", u, err)
	}
	deny := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusForbidden)
		_, _ = io.WriteString(w, "<Error><Code>SignatureDoesNotMatch</Code></Error>")
	}))
	defer deny.Close()
	bad, _ := New(Config{Endpoint: deny.URL, Bucket: "media", Region: "eu-west-1", AccessKeyID: "AKID", SecretAccessKey: "secret"})
	if _, err := bad.Put(ctx, "k.jpg", "image/jpeg", []byte("x")); err == nil || !strings.Contains(err.Error(), "SignatureDoesNotMatch") {
		t.Fatalf("refused put: %v", err)
	}
}

func TestConfig(t *testing.T) {
	t.Parallel()
	if _, err := New(Config{Endpoint: "http://x"}); err == nil || !strings.Contains(err.Error(), "uploads.s3.bucket") {
		t.Fatalf("missing keys: %v", err)
	}
	if _, err := New(Config{Endpoint: "ftp://x", Bucket: "b", Region: "r", AccessKeyID: "a", SecretAccessKey: "s"}); err == nil {
		t.Fatal("ftp endpoint accepted")
	}
	vh, _ := New(Config{Endpoint: "https://s3.eu-west-1.amazonaws.com", Bucket: "media", Region: "eu-west-1", AccessKeyID: "a", SecretAccessKey: "s", VirtualHosted: true})
	if got := vh.PublicURL("a b.png"); got != "https://media.s3.eu-west-1.amazonaws.com/a%20b.png" {
		t.Fatalf("virtual-hosted url %s", got)
	}
	if got := canonicalURI(vh.objectURL("a b+c.png")); got != "/a%20b%2Bc.png" {
		t.Fatalf("canonical uri %s", got)
	}
}
