package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"
)

// conn is one keep-alive HTTP/1.1 connection driven by one goroutine, like a wrk
// connection: requests are written from bytes built here and responses are read with
// net/http's parser, without the transport's per-connection goroutines (which would
// cost the load generator more CPU than the servers it measures on a 2-core machine).
type conn struct {
	addr string // host:port
	c    net.Conn
	br   *bufio.Reader
	req  []byte
	body bytes.Buffer
}

func newConn(addr string) *conn { return &conn{addr: addr} }

// header is one request header.
type header struct{ k, v string }

// response is what a request answered; body is valid until the next request.
type response struct {
	status int
	body   []byte
}

func (r response) decode(v any) error { return json.Unmarshal(r.body, v) }

func (k *conn) close() {
	if k.c != nil {
		_ = k.c.Close()
		k.c = nil
	}
}

func (k *conn) dial() error {
	d := net.Dialer{Timeout: 5 * time.Second}
	c, err := d.DialContext(context.Background(), "tcp", k.addr)
	if err != nil {
		return err
	}
	k.c = c
	if k.br == nil {
		k.br = bufio.NewReaderSize(c, 32<<10)
	} else {
		k.br.Reset(c)
	}
	return nil
}

// do sends one request. A request on a reused connection that the server had closed
// is retried once on a new connection.
func (k *conn) do(method, path string, body []byte, headers ...header) (response, error) {
	k.req = k.req[:0]
	k.req = append(k.req, method...)
	k.req = append(k.req, ' ')
	k.req = append(k.req, path...)
	k.req = append(k.req, " HTTP/1.1\r\nHost: "...)
	k.req = append(k.req, k.addr...)
	k.req = append(k.req, "\r\nUser-Agent: commerce-benchctl\r\nAccept: application/json\r\n"...)
	for _, h := range headers {
		k.req = append(k.req, h.k...)
		k.req = append(k.req, ": "...)
		k.req = append(k.req, h.v...)
		k.req = append(k.req, "\r\n"...)
	}
	if body != nil {
		k.req = append(k.req, "Content-Type: application/json\r\nContent-Length: "...)
		k.req = strconv.AppendInt(k.req, int64(len(body)), 10)
		k.req = append(k.req, "\r\n"...)
	}
	k.req = append(k.req, "\r\n"...)
	k.req = append(k.req, body...)

	for attempt := 0; ; attempt++ {
		fresh := k.c == nil
		if fresh {
			if err := k.dial(); err != nil {
				return response{}, err
			}
		}
		r, err := k.roundTrip()
		if err == nil {
			return r, nil
		}
		k.close()
		stale := errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed)
		if fresh || attempt > 0 || !stale {
			return response{}, err
		}
	}
}

func (k *conn) roundTrip() (response, error) {
	if _, err := k.c.Write(k.req); err != nil {
		return response{}, err
	}
	resp, err := http.ReadResponse(k.br, nil)
	if err != nil {
		return response{}, err
	}
	k.body.Reset()
	_, err = k.body.ReadFrom(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return response{}, err
	}
	if resp.Close {
		k.close()
	}
	return response{status: resp.StatusCode, body: k.body.Bytes()}, nil
}

// doJSON sends v as JSON and decodes a 2xx answer into out (when not nil).
func (k *conn) doJSON(method, path string, v, out any, headers ...header) (response, error) {
	var body []byte
	switch b := v.(type) {
	case nil:
	case []byte:
		body = b
	default:
		body = mustJSON(b)
	}
	r, err := k.do(method, path, body, headers...)
	if err != nil {
		return r, err
	}
	if r.status/100 != 2 {
		return r, fmt.Errorf("%s %s: %d %s", method, path, r.status, truncate(r.body, 300))
	}
	if out != nil {
		if err := r.decode(out); err != nil {
			return r, fmt.Errorf("%s %s: decode: %w", method, path, err)
		}
	}
	return r, nil
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func truncate(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "..."
	}
	return string(b)
}

func bearer(token string) header { return header{"Authorization", "Bearer " + token} }

func sessionToken(token string) header { return header{"X-Session-Token", token} }

// routeMissing reports whether a response is the router's own 404/405 (no such route,
// as opposed to a missing resource): platform/httpx answers "Not found: METHOD /path".
func routeMissing(r response) bool {
	if r.status == http.StatusMethodNotAllowed {
		return true
	}
	if r.status != http.StatusNotFound {
		return false
	}
	var env struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	_ = json.Unmarshal(r.body, &env)
	return bytes.HasPrefix([]byte(env.Error.Message), []byte("Not found: "))
}
