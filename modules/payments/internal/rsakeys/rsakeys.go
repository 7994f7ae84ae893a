// Package rsakeys parses the RSA keys providers hand out: PEM (PKCS#1, PKCS#8, PKIX) or
// the bare base64 body their consoles show.
package rsakeys

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"
)

func pemBlock(s, kind string) []byte {
	s = strings.TrimSpace(s)
	if !strings.Contains(s, "-----BEGIN") {
		s = "-----BEGIN " + kind + "-----\n" + s + "\n-----END " + kind + "-----"
	}
	b, _ := pem.Decode([]byte(s))
	if b == nil {
		return nil
	}
	return b.Bytes
}

// ParsePrivate reads an RSA private key (PKCS#1 or PKCS#8, PEM or bare base64).
func ParsePrivate(s string) (*rsa.PrivateKey, error) {
	der := pemBlock(s, "PRIVATE KEY")
	if der == nil {
		return nil, errors.New("not a PEM or base64 RSA private key")
	}
	if k, err := x509.ParsePKCS1PrivateKey(der); err == nil {
		return k, nil
	}
	k, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		return nil, err
	}
	rk, ok := k.(*rsa.PrivateKey)
	if !ok {
		return nil, errors.New("not an RSA key")
	}
	return rk, nil
}

// ParsePublic reads an RSA public key (PKIX or PKCS#1, PEM or bare base64).
func ParsePublic(s string) (*rsa.PublicKey, error) {
	der := pemBlock(s, "PUBLIC KEY")
	if der == nil {
		return nil, errors.New("not a PEM or base64 RSA public key")
	}
	if k, err := x509.ParsePKIXPublicKey(der); err == nil {
		rk, ok := k.(*rsa.PublicKey)
		if !ok {
			return nil, errors.New("not an RSA key")
		}
		return rk, nil
	}
	return x509.ParsePKCS1PublicKey(der)
}

// ParsePair reads a gateway's own private key and its provider's public key; an error
// names the one that is wrong (private_key or public_key).
func ParsePair(private, public string) (*rsa.PrivateKey, *rsa.PublicKey, error) {
	key, err := ParsePrivate(private)
	if err != nil {
		return nil, nil, fmt.Errorf("private_key: %w", err)
	}
	pub, err := ParsePublic(public)
	if err != nil {
		return nil, nil, fmt.Errorf("public_key: %w", err)
	}
	return key, pub, nil
}

// Sign signs content with SHA256withRSA (PKCS#1 v1.5; Alipay's RSA2, WeChat Pay's
// SHA256-RSA2048) and answers the signature in base64.
func Sign(key *rsa.PrivateKey, content string) (string, error) {
	sum := sha256.Sum256([]byte(content))
	sig, err := rsa.SignPKCS1v15(rand.Reader, key, crypto.SHA256, sum[:])
	if err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(sig), nil
}

// Verify checks sig, a base64 SHA256withRSA signature of content, with pub.
func Verify(pub *rsa.PublicKey, content, sig string) error {
	raw, err := base64.StdEncoding.DecodeString(sig)
	if err != nil {
		return err
	}
	sum := sha256.Sum256([]byte(content))
	return rsa.VerifyPKCS1v15(pub, crypto.SHA256, sum[:], raw)
}
