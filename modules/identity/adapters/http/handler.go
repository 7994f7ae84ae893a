// Package http is identity's HTTP face: registration, login, refresh and staff login.
package http

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/modules/identity/app"
	"github.com/gocommerce/commerce/platform/httpx"
)

// Handler serves the authentication endpoints (all public).
type Handler struct {
	svc *app.Service
}

// NewHandler builds the handler.
func NewHandler(svc *app.Service) *Handler { return &Handler{svc: svc} }

// RegisterRoutes mounts POST /api/v1/auth/{register,login,refresh} and
// POST /api/v1/admin/auth/login.
func (h *Handler) RegisterRoutes(r *httpx.Routes) {
	ok := http.StatusOK
	g := r.API.Group("/auth")
	g.POST("/register", httpx.HandleJSONBare(http.StatusCreated, h.register))
	g.POST("/login", httpx.HandleJSONBare(ok, h.login))
	g.POST("/refresh", httpx.HandleJSONBare(ok, h.refresh))
	r.API.POST("/admin/auth/login", httpx.HandleJSONBare(ok, h.adminLogin))
}

func (h *Handler) register(c *gin.Context, req registerRequest) (tokenResponse, error) {
	out, err := h.svc.Register(c.Request.Context(), app.RegisterCommand{
		Email: req.Email, Password: req.Password, FirstName: req.FirstName, LastName: req.LastName,
	})
	return toCustomerTokenResponse(out), err
}

func (h *Handler) login(c *gin.Context, req loginRequest) (tokenResponse, error) {
	out, err := h.svc.Login(c.Request.Context(), app.LoginCommand{Email: req.Email, Password: req.Password})
	return toCustomerTokenResponse(out), err
}

func (h *Handler) refresh(c *gin.Context, req refreshRequest) (accessTokenResponse, error) {
	out, err := h.svc.Refresh(c.Request.Context(), req.RefreshToken)
	return accessTokenResponse{AccessToken: out.AccessToken, TokenType: app.TokenType, ExpiresIn: out.ExpiresIn}, err
}

func (h *Handler) adminLogin(c *gin.Context, req loginRequest) (tokenResponse, error) {
	out, err := h.svc.AdminLogin(c.Request.Context(), app.LoginCommand{Email: req.Email, Password: req.Password})
	return toStaffTokenResponse(out), err
}
