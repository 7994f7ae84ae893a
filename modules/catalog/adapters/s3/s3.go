// Package s3 keeps product images in an S3-compatible object store (AWS S3, MinIO,
// Cloudflare R2, ...) with PUT and DELETE object requests signed with AWS Signature
// Version 4 over net/http (no SDK).
package s3

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/gocommerce/commerce/modules/catalog/ports"
)

// Config locates the bucket. Planned configuration keys: uploads.s3.endpoint, bucket,
// region, access_key_id, secret_access_key, public_url (and path_style).
type Config struct {
	// Endpoint is the service's base URL, e.g. https://s3.eu-west-1.amazonaws.com or
	// http://127.0.0.1:9000 (MinIO).
	Endpoint        string
	Bucket          string
	Region          string
	AccessKeyID     string
	SecretAccessKey string
	// PublicURL prefixes the URLs given to clients (a CDN, or the bucket's website);
	// empty means the object URL itself.
	PublicURL string
	// VirtualHosted addresses the bucket as <bucket>.<endpoint host> instead of
	// <endpoint>/<bucket> (path style, the default, which every S3-compatible store
	// accepts).
	VirtualHosted bool
	// Client is the HTTP client (default: 30 s timeout).
	Client *http.Client
	// Now is the signing clock (default time.Now).
	Now func() time.Time
}

// Storage implements ports.ImageStorage on an S3 bucket.
type Storage struct {
	cfg  Config
	base *url.URL
}

var _ ports.ImageStorage = (*Storage)(nil)

// New checks the configuration and builds the storage.
func New(cfg Config) (*Storage, error) {
	var missing []string
	for name, v := range map[string]string{"endpoint": cfg.Endpoint, "bucket": cfg.Bucket, "region": cfg.Region, "access_key_id": cfg.AccessKeyID, "secret_access_key": cfg.SecretAccessKey} {
		if v == "" {
			missing = append(missing, "uploads.s3."+name)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return nil, fmt.Errorf("uploads: s3 storage needs %s", strings.Join(missing, ", "))
	}
	u, err := url.Parse(strings.TrimRight(cfg.Endpoint, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("uploads: uploads.s3.endpoint %q is not an http(s) URL", cfg.Endpoint)
	}
	if cfg.Client == nil {
		cfg.Client = &http.Client{Timeout: 30 * time.Second}
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Storage{cfg: cfg, base: u}, nil
}

// objectURL is the request URL of key.
func (s *Storage) objectURL(key string) *url.URL {
	u := *s.base
	if s.cfg.VirtualHosted {
		u.Host = s.cfg.Bucket + "." + u.Host
		u.Path = strings.TrimRight(u.Path, "/") + "/" + key
	} else {
		u.Path = strings.TrimRight(u.Path, "/") + "/" + s.cfg.Bucket + "/" + key
	}
	return &u
}

// PublicURL is the URL clients fetch key from.
func (s *Storage) PublicURL(key string) string {
	if s.cfg.PublicURL != "" {
		return strings.TrimRight(s.cfg.PublicURL, "/") + "/" + key
	}
	return s.objectURL(key).String()
}

// Put uploads the object (PUT Object) and returns its public URL.
func (s *Storage) Put(ctx context.Context, key, contentType string, data []byte) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, s.objectURL(key).String(), bytes.NewReader(data))
	if err != nil {
		return "", fmt.Errorf("s3: %w", err)
	}
	req.Header.Set("Content-Type", contentType)
	if err := s.do(req, data, http.StatusOK); err != nil {
		return "", err
	}
	return s.PublicURL(key), nil
}

// Delete removes the object (DELETE Object); a missing object is not an error.
func (s *Storage) Delete(ctx context.Context, key string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, s.objectURL(key).String(), http.NoBody)
	if err != nil {
		return fmt.Errorf("s3: %w", err)
	}
	return s.do(req, nil, http.StatusNoContent, http.StatusOK, http.StatusNotFound)
}

func (s *Storage) do(req *http.Request, payload []byte, ok ...int) error {
	sum := sha256.Sum256(payload)
	s.sign(req, hex.EncodeToString(sum[:]), s.cfg.Now().UTC())
	res, err := s.cfg.Client.Do(req)
	if err != nil {
		return fmt.Errorf("s3: %s %s: %w", req.Method, req.URL.Path, err)
	}
	defer func() { _ = res.Body.Close() }()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 2048))
	for _, code := range ok {
		if res.StatusCode == code {
			return nil
		}
	}
	return fmt.Errorf("s3: %s %s: status %d: %s", req.Method, req.URL.Path, res.StatusCode, strings.TrimSpace(string(body)))
}

// sign adds x-amz-date, x-amz-content-sha256 and the Authorization header of AWS
// Signature Version 4 (service s3). Signed headers: host, content-type, content-md5,
// range and every x-amz-* header.
func (s *Storage) sign(req *http.Request, payloadHash string, t time.Time) {
	amzDate := t.Format("20060102T150405Z")
	day := t.Format("20060102")
	req.Header.Set("X-Amz-Date", amzDate)
	req.Header.Set("X-Amz-Content-Sha256", payloadHash)

	headers := map[string]string{"host": req.Host}
	if req.Host == "" {
		headers["host"] = req.URL.Host
	}
	for name, vals := range req.Header {
		l := strings.ToLower(name)
		if l == "content-type" || l == "content-md5" || l == "range" || strings.HasPrefix(l, "x-amz-") {
			trimmed := make([]string, len(vals))
			for i, v := range vals {
				trimmed[i] = strings.Join(strings.Fields(v), " ")
			}
			headers[l] = strings.Join(trimmed, ",")
		}
	}
	names := make([]string, 0, len(headers))
	for n := range headers {
		names = append(names, n)
	}
	sort.Strings(names)
	var canonHeaders strings.Builder
	for _, n := range names {
		canonHeaders.WriteString(n + ":" + headers[n] + "\n")
	}
	signed := strings.Join(names, ";")

	canonical := strings.Join([]string{
		req.Method,
		canonicalURI(req.URL),
		canonicalQuery(req.URL),
		canonHeaders.String(),
		signed,
		payloadHash,
	}, "\n")
	scope := day + "/" + s.cfg.Region + "/s3/aws4_request"
	crHash := sha256.Sum256([]byte(canonical))
	toSign := "AWS4-HMAC-SHA256\n" + amzDate + "\n" + scope + "\n" + hex.EncodeToString(crHash[:])

	key := hmacSHA256([]byte("AWS4"+s.cfg.SecretAccessKey), day)
	key = hmacSHA256(key, s.cfg.Region)
	key = hmacSHA256(key, "s3")
	key = hmacSHA256(key, "aws4_request")
	sig := hex.EncodeToString(hmacSHA256(key, toSign))
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential="+s.cfg.AccessKeyID+"/"+scope+
		",SignedHeaders="+signed+",Signature="+sig)
}

func hmacSHA256(key []byte, data string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(data))
	return m.Sum(nil)
}

// canonicalURI URI-encodes each path segment once (S3 does not double-encode).
func canonicalURI(u *url.URL) string {
	p := u.EscapedPath()
	if p == "" {
		return "/"
	}
	raw, err := url.PathUnescape(p)
	if err != nil {
		raw = u.Path
	}
	segs := strings.Split(raw, "/")
	for i, seg := range segs {
		segs[i] = awsEscape(seg)
	}
	return strings.Join(segs, "/")
}

func canonicalQuery(u *url.URL) string {
	q := u.Query()
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		vals := append([]string(nil), q[k]...)
		sort.Strings(vals)
		for _, v := range vals {
			parts = append(parts, awsEscape(k)+"="+awsEscape(v))
		}
	}
	return strings.Join(parts, "&")
}

// awsEscape percent-encodes everything but the unreserved characters A-Z a-z 0-9 - _ . ~.
func awsEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' || c == '~' {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}

// ErrNotConfigured is returned when the s3 driver is chosen without its settings.
var ErrNotConfigured = errors.New("uploads: s3 storage is not configured")
