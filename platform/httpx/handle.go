package httpx

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/platform/patch"
)

// The typed handler adapters: a handler is the call between reading the request and
// writing the answer, and the adapter does the rest. An error goes through Error (the
// status table and the envelope); a value is written as {"data": v} with the status
// given, a list as {"data": [...], "meta": {"pagination": ...}}. Decision 0122.
//
//	g.GET("/:id", read, httpx.Handle(http.StatusOK, h.get))          // func(*gin.Context) (T, error)
//	g.POST("", write, httpx.HandleJSON(http.StatusCreated, h.create)) // func(*gin.Context, B) (T, error): body bound first
//	g.POST("", write, httpx.HandleInput[createRequest](http.StatusCreated, h.create)) // B's Input() first: fn gets the command
//	g.POST("/login", httpx.HandleJSONBare(http.StatusOK, h.login))   // as HandleJSON, v written without {"data": ...}
//	g.PATCH("/:id", write, httpx.HandlePatch(http.StatusOK, widgetInput, h.update)) // func(*gin.Context, In) (T, error): platform/patch body
//	g.GET("", read, httpx.HandleList(h.list))                        // func(*gin.Context, Page) ([]T, int64, error)
//	g.DELETE("/:id", write, httpx.HandleNoContent(h.delete))         // func(*gin.Context) error: 204

// Handle serves fn's value as {"data": v} with status.
func Handle[T any](status int, fn func(c *gin.Context) (T, error)) gin.HandlerFunc {
	return func(c *gin.Context) {
		v, err := fn(c)
		Reply(c, status, v, err)
	}
}

// HandleJSON binds the JSON body to a B (BindJSON: a 400 or 413 before fn runs), then
// serves fn's value as {"data": v} with status.
func HandleJSON[B, T any](status int, fn func(c *gin.Context, body B) (T, error)) gin.HandlerFunc {
	return handleJSON(status, fn, true)
}

// Input is a request body that converts itself to its use case's input, or fails
// with the 400 that names what is wrong.
type Input[In any] interface {
	Input() (In, error)
}

// HandleInput binds the JSON body to a B (as HandleJSON), converts it with its Input
// method (its error answered before fn runs), then serves fn's value as {"data": v}
// with status. B is named, the rest inferred: HandleInput[createRequest](201, h.create).
func HandleInput[B Input[In], In, T any](status int, fn func(c *gin.Context, in In) (T, error)) gin.HandlerFunc {
	return HandleJSON(status, func(c *gin.Context, body B) (T, error) {
		in, err := body.Input()
		if err != nil {
			var zero T
			return zero, err
		}
		return fn(c, in)
	})
}

// HandleJSONBare is HandleJSON for the few answers the spec shows without the data
// envelope (token responses, a validation verdict): fn's value is the whole body.
func HandleJSONBare[B, T any](status int, fn func(c *gin.Context, body B) (T, error)) gin.HandlerFunc {
	return handleJSON(status, fn, false)
}

func handleJSON[B, T any](status int, fn func(c *gin.Context, body B) (T, error), envelope bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		body, ok := Bind[B](c)
		if !ok {
			return
		}
		v, err := fn(c, body)
		switch {
		case err != nil:
			Error(c, err)
		case envelope:
			c.JSON(status, Data(v))
		default:
			c.JSON(status, v)
		}
	}
}

// HandlePatch reads the body with platform/patch (ReadPatch: a 400 naming every bad
// member before fn runs), then serves fn's value as {"data": v} with status.
func HandlePatch[In, T any](status int, read func(*patch.Body) In, fn func(c *gin.Context, in In) (T, error), opts ...patch.Option) gin.HandlerFunc {
	return Handle(status, func(c *gin.Context) (T, error) {
		in, err := ReadPatch(c, read, opts...)
		if err != nil {
			var zero T
			return zero, err
		}
		return fn(c, in)
	})
}

// ReadPatch reads a write body with platform/patch (each member absent, null or a
// value; opts as patch.Read takes them), then its members with read; the error is
// patch.Read's, or one 400 naming every member of the wrong type.
func ReadPatch[In any](c *gin.Context, read func(*patch.Body) In, opts ...patch.Option) (In, error) {
	b, err := patch.Read(c.Request, opts...)
	if err != nil {
		var zero In
		return zero, err
	}
	in := read(b)
	return in, b.Err()
}

// HandleList parses page and per_page (ParsePage: a 400 before fn runs), then serves
// fn's page of items and their total as a List.
func HandleList[T any](fn func(c *gin.Context, p Page) ([]T, int64, error)) gin.HandlerFunc {
	return func(c *gin.Context) {
		p, err := ParsePage(c)
		if err != nil {
			Error(c, err)
			return
		}
		items, total, err := fn(c, p)
		if err != nil {
			Error(c, err)
			return
		}
		c.JSON(http.StatusOK, NewList(items, p, total))
	}
}

// HandleNoContent answers 204 when fn succeeds.
func HandleNoContent(fn func(c *gin.Context) error) gin.HandlerFunc {
	return func(c *gin.Context) {
		if err := fn(c); err != nil {
			Error(c, err)
			return
		}
		c.Status(http.StatusNoContent)
	}
}

// Bind reads the JSON body into a B with BindJSON; on an error it writes it and
// answers false.
func Bind[B any](c *gin.Context) (B, bool) {
	var body B
	if err := BindJSON(c, &body); err != nil {
		Error(c, err)
		return body, false
	}
	return body, true
}

// Reply writes err, or v as {"data": v} with status.
func Reply(c *gin.Context, status int, v any, err error) {
	if err != nil {
		Error(c, err)
		return
	}
	c.JSON(status, Data(v))
}

// Map converts each item with f (a use case's values to their response shape); nil
// stays nil, which List writes as [].
func Map[T, U any](items []T, f func(T) U) []U {
	if items == nil {
		return nil
	}
	out := make([]U, len(items))
	for i, it := range items {
		out[i] = f(it)
	}
	return out
}
