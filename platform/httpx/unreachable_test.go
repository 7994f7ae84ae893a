package httpx_test

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/platform/httpx"
)

// sqlStateError is an error with a SQLSTATE, as pgx's *pgconn.PgError is.
type sqlStateError string

func (e sqlStateError) Error() string    { return "pg: " + string(e) }
func (e sqlStateError) SQLState() string { return string(e) }

// A dependency that cannot be reached (PostgreSQL down or restarting) is a 503 with
// Retry-After, not a 500; any other failure stays a 500.
func TestUnreachableIs503(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{fmt.Errorf("failed to connect: %w", refused), true},
		{fmt.Errorf("read: %w", io.ErrUnexpectedEOF), true},
		{driver.ErrBadConn, true},
		{fmt.Errorf("repo: %w", sqlStateError("57P01")), true}, // admin_shutdown
		{sqlStateError("57P03"), true},                         // cannot_connect_now
		{sqlStateError("08006"), true},                         // connection_failure
		{sqlStateError("23505"), false},                        // unique_violation
		{errors.New("boom"), false},
	} {
		if got := httpx.Unreachable(tc.err); got != tc.want {
			t.Errorf("Unreachable(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}

	gin.SetMode(gin.TestMode)
	for _, tc := range []struct {
		err    error
		status int
	}{
		{fmt.Errorf("repo: %w", refused), http.StatusServiceUnavailable},
		{errors.New("boom"), http.StatusInternalServerError},
	} {
		w := httptest.NewRecorder()
		c, _ := gin.CreateTestContext(w)
		c.Request = httptest.NewRequest(http.MethodGet, "/", nil)
		httpx.Error(c, tc.err)
		if w.Code != tc.status {
			t.Fatalf("%v: %d, want %d: %s", tc.err, w.Code, tc.status, w.Body)
		}
		if tc.status == http.StatusServiceUnavailable && w.Header().Get("Retry-After") != "1" {
			t.Fatalf("503 without Retry-After: %v", w.Header())
		}
	}
}
