package channels_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/golang-jwt/jwt/v5"

	"github.com/gocommerce/commerce/modules/notifications/adapters/channels"
	"github.com/gocommerce/commerce/platform/config"
)

// With a service account key, the push channel mints its token at the key's token_uri
// (a JWT bearer grant signed with the key), keeps it, and sends with it.
func TestPushWithServiceAccount(t *testing.T) {
	t.Parallel()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	pemKey := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})
	var grants atomic.Int32
	var sentWith atomic.Value
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		claims := jwt.MapClaims{}
		_, err := jwt.ParseWithClaims(r.PostForm.Get("assertion"), claims, func(*jwt.Token) (any, error) { return &key.PublicKey, nil },
			jwt.WithValidMethods([]string{"RS256"}), jwt.WithAudience(srv.URL+"/token"))
		if err != nil || r.PostForm.Get("grant_type") != "urn:ietf:params:oauth:grant-type:jwt-bearer" ||
			claims["iss"] != "push@shop.iam.example" || claims["scope"] != channels.FCMScope {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, `{"error":"invalid_grant"}`)
			return
		}
		grants.Add(1)
		_, _ = io.WriteString(w, `{"access_token":"minted-1","expires_in":3600,"token_type":"Bearer"}`)
	})
	mux.HandleFunc("/v1/projects/shop-project/messages:send", func(w http.ResponseWriter, r *http.Request) {
		sentWith.Store(r.Header.Get("Authorization"))
		_, _ = io.WriteString(w, `{"name":"projects/shop-project/messages/1"}`)
	})
	file := filepath.Join(t.TempDir(), "sa.json")
	raw, _ := json.Marshal(map[string]string{"type": "service_account", "project_id": "shop-project", "client_email": "push@shop.iam.example",
		"private_key": string(pemKey), "token_uri": srv.URL + "/token"})
	if err := os.WriteFile(file, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	ch := channels.NewPush(config.NotificationPush{BaseURL: srv.URL, CredentialsFile: file}, srv.Client())
	for range 2 {
		if id, err := ch.Send(context.Background(), note("push", "device-1")); err != nil || id != "projects/shop-project/messages/1" {
			t.Fatalf("send %q %v", id, err)
		}
	}
	if sentWith.Load() != "Bearer minted-1" || grants.Load() != 1 {
		t.Errorf("sent with %v after %d grants", sentWith.Load(), grants.Load())
	}
	bad := channels.NewPush(config.NotificationPush{BaseURL: srv.URL, CredentialsFile: filepath.Join(t.TempDir(), "missing.json")}, srv.Client())
	if _, err := bad.Send(context.Background(), note("push", "device-1")); err == nil || !strings.Contains(err.Error(), "credentials_file") {
		t.Errorf("missing key file: %v", err)
	}
}
