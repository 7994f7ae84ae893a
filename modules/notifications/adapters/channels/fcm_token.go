package channels

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// FCMScope is the OAuth scope of FCM's send API.
const FCMScope = "https://www.googleapis.com/auth/firebase.messaging"

// ServiceAccount is the part of a Google service account key file the token source
// reads.
type ServiceAccount struct {
	ProjectID   string `json:"project_id"`
	ClientEmail string `json:"client_email"`
	PrivateKey  string `json:"private_key"`
	TokenURI    string `json:"token_uri"`
}

// ReadServiceAccount reads a key file.
func ReadServiceAccount(path string) (ServiceAccount, error) {
	raw, err := os.ReadFile(path) //nolint:gosec // the operator's configured key file
	if err != nil {
		return ServiceAccount{}, fmt.Errorf("notifications.push.credentials_file: %w", err)
	}
	var sa ServiceAccount
	if err := json.Unmarshal(raw, &sa); err != nil || sa.ClientEmail == "" || sa.PrivateKey == "" {
		return ServiceAccount{}, errors.New("notifications.push.credentials_file: not a service account key (client_email, private_key)")
	}
	if sa.TokenURI == "" {
		sa.TokenURI = "https://oauth2.googleapis.com/token"
	}
	return sa, nil
}

// tokenSource mints access tokens with the OAuth 2.0 JWT bearer grant (RFC 7523) as
// Google's service accounts use it, and keeps each until a minute before it expires.
type tokenSource struct {
	sa     ServiceAccount
	client *http.Client
	now    func() time.Time

	mu      sync.Mutex
	token   string
	expires time.Time
}

func (ts *tokenSource) Token(ctx context.Context) (string, error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	now := ts.now()
	if ts.token != "" && now.Before(ts.expires.Add(-time.Minute)) {
		return ts.token, nil
	}
	key, err := jwt.ParseRSAPrivateKeyFromPEM([]byte(ts.sa.PrivateKey))
	if err != nil {
		return "", fmt.Errorf("push: service account key: %w", err)
	}
	assertion, err := jwt.NewWithClaims(jwt.SigningMethodRS256, jwt.MapClaims{
		"iss": ts.sa.ClientEmail, "scope": FCMScope, "aud": ts.sa.TokenURI,
		"iat": now.Unix(), "exp": now.Add(time.Hour).Unix(),
	}).SignedString(key)
	if err != nil {
		return "", fmt.Errorf("push: sign assertion: %w", err)
	}
	form := url.Values{"grant_type": {"urn:ietf:params:oauth:grant-type:jwt-bearer"}, "assertion": {assertion}}
	var out struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int64  `json:"expires_in"`
	}
	if err := post(ctx, ts.client, "push token", ts.sa.TokenURI, "application/x-www-form-urlencoded", []byte(form.Encode()),
		func(*http.Request) {}, &out); err != nil {
		return "", err
	}
	if out.AccessToken == "" {
		return "", errors.New("push token: no access_token in the answer")
	}
	ts.token, ts.expires = out.AccessToken, now.Add(time.Duration(out.ExpiresIn)*time.Second)
	return ts.token, nil
}
