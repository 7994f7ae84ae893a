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
	g := r.API.Group("/auth")
	g.POST("/register", h.register)
	g.POST("/login", h.login)
	g.POST("/refresh", h.refresh)
	r.API.POST("/admin/auth/login", h.adminLogin)
}

func (h *Handler) register(c *gin.Context) {
	var req registerRequest
	if err := httpx.BindJSON(c, &req); err != nil {
		httpx.Error(c, err)
		return
	}
	out, err := h.svc.Register(c.Request.Context(), app.RegisterCommand{
		Email: req.Email, Password: req.Password, FirstName: req.FirstName, LastName: req.LastName,
	})
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusCreated, toCustomerTokenResponse(out))
}

func (h *Handler) login(c *gin.Context) {
	var req loginRequest
	if err := httpx.BindJSON(c, &req); err != nil {
		httpx.Error(c, err)
		return
	}
	out, err := h.svc.Login(c.Request.Context(), app.LoginCommand{Email: req.Email, Password: req.Password})
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, toCustomerTokenResponse(out))
}

func (h *Handler) refresh(c *gin.Context) {
	var req refreshRequest
	if err := httpx.BindJSON(c, &req); err != nil {
		httpx.Error(c, err)
		return
	}
	out, err := h.svc.Refresh(c.Request.Context(), req.RefreshToken)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, accessTokenResponse{AccessToken: out.AccessToken, TokenType: app.TokenType, ExpiresIn: out.ExpiresIn})
}

func (h *Handler) adminLogin(c *gin.Context) {
	var req loginRequest
	if err := httpx.BindJSON(c, &req); err != nil {
		httpx.Error(c, err)
		return
	}
	out, err := h.svc.AdminLogin(c.Request.Context(), app.LoginCommand{Email: req.Email, Password: req.Password})
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, toStaffTokenResponse(out))
}
