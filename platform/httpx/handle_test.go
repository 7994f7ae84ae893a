package httpx

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/platform/apperr"
)

type widgetBody struct {
	Name string `json:"name" binding:"required"`
}

func (b widgetBody) Input() (string, error) {
	if b.Name == "bad" {
		return "", apperr.Validation(map[string]string{"name": "is bad"})
	}
	return strings.ToUpper(b.Name), nil
}

// serve runs h on one request and answers the status and body.
func serve(t *testing.T, h gin.HandlerFunc, method, target, body string) (int, string) {
	t.Helper()
	w := httptest.NewRecorder()
	c, _ := gin.CreateTestContext(w)
	c.Request = httptest.NewRequest(method, target, strings.NewReader(body))
	h(c)
	c.Writer.WriteHeaderNow()
	return w.Code, strings.TrimSpace(w.Body.String())
}

func TestHandlerAdapters(t *testing.T) {
	t.Parallel()
	calls := 0
	echo := func(_ *gin.Context, in string) (string, error) { calls++; return in, nil }
	cases := []struct {
		name       string
		h          gin.HandlerFunc
		target     string
		body       string
		wantStatus int
		wantBody   string
	}{
		{"value", Handle(http.StatusOK, func(*gin.Context) (int, error) { return 7, nil }), "/", "", 200, `{"data":7}`},
		{"error", Handle(http.StatusOK, func(*gin.Context) (int, error) { return 0, apperr.NotFoundf("gone") }), "/", "", 404, ""},
		{"body", HandleJSON(http.StatusCreated, func(_ *gin.Context, b widgetBody) (string, error) { return b.Name, nil }), "/", `{"name":"a"}`, 201, `{"data":"a"}`},
		{"bad body", HandleJSON(http.StatusCreated, func(_ *gin.Context, b widgetBody) (string, error) { calls++; return "", nil }), "/", `{}`, 400, ""},
		{"bare", HandleJSONBare(http.StatusOK, func(_ *gin.Context, b widgetBody) (widgetBody, error) { return b, nil }), "/", `{"name":"a"}`, 200, `{"name":"a"}`},
		{"input", HandleInput[widgetBody](http.StatusOK, echo), "/", `{"name":"a"}`, 200, `{"data":"A"}`},
		{"input fails", HandleInput[widgetBody](http.StatusOK, func(*gin.Context, string) (string, error) { calls++; return "", nil }), "/", `{"name":"bad"}`, 400, ""},
		{"list", HandleList(func(_ *gin.Context, p Page) ([]int, int64, error) { return nil, 3, nil }), "/?per_page=2", "", 200,
			`{"data":[],"meta":{"pagination":{"total":3,"per_page":2,"current_page":1,"total_pages":2,"has_next":true,"has_prev":false}}}`},
		{"list bad page", HandleList(func(*gin.Context, Page) ([]int, int64, error) { calls++; return nil, 0, nil }), "/?page=0", "", 400, ""},
		{"no content", HandleNoContent(func(*gin.Context) error { return nil }), "/", "", 204, ""},
		{"no content error", HandleNoContent(func(*gin.Context) error { return errors.New("boom") }), "/", "", 500, ""},
	}
	for _, tc := range cases {
		status, body := serve(t, tc.h, http.MethodPost, tc.target, tc.body)
		if status != tc.wantStatus || tc.wantBody != "" && body != tc.wantBody {
			t.Errorf("%s: %d %s, want %d %s", tc.name, status, body, tc.wantStatus, tc.wantBody)
		}
	}
	if calls != 1 { // only "input" reached its function
		t.Errorf("functions called %d times after a bad request, want 1 (the good input)", calls)
	}
	if Map([]int(nil), func(int) int { return 0 }) != nil || Map([]int{1, 2}, func(i int) int { return i * 10 })[1] != 20 {
		t.Error("Map")
	}
}
