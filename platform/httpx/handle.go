package httpx

import (
	"net/http"

	"github.com/gin-gonic/gin"
)

// The typed handler adapters: a handler is the call between reading the request and
// writing the answer, and the adapter does the rest. An error goes through Error (the
// status table and the envelope); a value is written as {"data": v} with the status
// given, a list as {"data": [...], "meta": {"pagination": ...}}. Decision 0122.
//
//	g.GET("/:id", read, httpx.Handle(http.StatusOK, h.get))          // func(*gin.Context) (T, error)
//	g.POST("", write, httpx.HandleJSON(http.StatusCreated, h.create)) // func(*gin.Context, B) (T, error): body bound first
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
	return func(c *gin.Context) {
		body, ok := Bind[B](c)
		if !ok {
			return
		}
		v, err := fn(c, body)
		Reply(c, status, v, err)
	}
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
