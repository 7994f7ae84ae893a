// Package httpx is the HTTP platform: the gin engine with request ids, access logs,
// panic recovery, JSON-only bodies, body limits, CORS, authentication and rate-limit
// hooks; the error envelope; binding; pagination; health; graceful shutdown.
package httpx

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/gin-contrib/cors"
	"github.com/gin-gonic/gin"
	"go.uber.org/zap"

	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/auth"
	"github.com/gocommerce/commerce/platform/config"
)

// Routes is what a module registers its endpoints on.
type Routes struct {
	// API is the /api/v1 group.
	API *gin.RouterGroup
	// Root is the engine root, for paths outside /api/v1 (e.g. /api/v2/webhooks).
	Root *gin.RouterGroup
	// bodies lists routes that accept a media type other than JSON.
	bodies bodyRoutes
	// uploads lists the routes that take multipart bodies (IsUpload).
	uploads uploadRoutes
}

// Update is PUT and PATCH, for an update route that serves both with one handler
// (platform/patch reads a whole body and a partial one alike):
//
//	g.Match(httpx.Update, "/:id", write, httpx.HandleJSON(ok, h.update))
var Update = []string{http.MethodPut, http.MethodPatch}

// AllowMultipart lets "METHOD /full/path" take multipart/form-data up to limit bytes.
func (r *Routes) AllowMultipart(method, fullPath string, limit int64) {
	r.AllowBody(method, fullPath, "multipart/form-data", BodyRule{Limit: limit})
}

// AllowForm lets "METHOD /full/path" take application/x-www-form-urlencoded bodies
// (e.g. a provider webhook that posts forms) up to limit bytes.
func (r *Routes) AllowForm(method, fullPath string, limit int64) {
	r.AllowBody(method, fullPath, "application/x-www-form-urlencoded", BodyRule{Limit: limit})
}

// AllowBody lets "METHOD /full/path" take mediaType bodies under rule. A route that
// takes a multipart/* type is an upload route (IsUpload).
func (r *Routes) AllowBody(method, fullPath, mediaType string, rule BodyRule) {
	r.bodies[method+" "+fullPath+" "+mediaType] = rule
	if strings.HasPrefix(mediaType, "multipart/") {
		r.uploads.add(method, fullPath)
	}
}

// Module is a business module's HTTP face.
type Module interface {
	RegisterRoutes(r *Routes)
}

// RateLimitMiddleware is installed after authentication (provided by platform/ratelimit).
type RateLimitMiddleware gin.HandlerFunc

// MetricsMiddleware records request metrics (provided by platform/metrics).
type MetricsMiddleware gin.HandlerFunc

// Server is the API server.
type Server struct {
	Engine *gin.Engine
	cfg    *config.Config
	log    *zap.Logger
	http   *http.Server
	idle   *idleTrimmer
}

// NewServer builds the engine with every middleware and every module's routes.
func NewServer(cfg *config.Config, logger *zap.Logger, authn auth.Authenticator, limiter RateLimitMiddleware, metrics MetricsMiddleware, health *Health, modules []Module) (*Server, error) {
	gin.SetMode(gin.ReleaseMode)
	e := gin.New()
	e.ContextWithFallback = true
	e.HandleMethodNotAllowed = true
	if err := e.SetTrustedProxies(cfg.HTTP.TrustedProxies); err != nil {
		return nil, apperr.Wrap(err, "config: http.trusted_proxies")
	}
	logger = logger.Named("http")
	bodies, uploads := bodyRoutes{}, uploadRoutes{}

	idle := &idleTrimmer{}
	e.Use(func(c *gin.Context) { idle.seen() })
	// recovery comes after the access log and metrics so a panic's 500 reaches both.
	e.Use(requestContext(logger, cfg.HTTP.RequestTimeout), accessLog(logger))
	if metrics != nil {
		e.Use(gin.HandlerFunc(metrics))
	}
	e.Use(recovery(logger))
	if cfg.HTTP.CORS.Enabled {
		cc := cors.Config{
			AllowOrigins:     cfg.HTTP.CORS.AllowedOrigins,
			AllowMethods:     cfg.HTTP.CORS.AllowedMethods,
			AllowHeaders:     cfg.HTTP.CORS.AllowedHeaders,
			ExposeHeaders:    cfg.HTTP.CORS.ExposedHeaders,
			AllowCredentials: cfg.HTTP.CORS.AllowCredentials,
			MaxAge:           cfg.HTTP.CORS.MaxAge,
		}
		if len(cc.AllowOrigins) == 1 && cc.AllowOrigins[0] == "*" {
			cc.AllowOrigins = nil
			cc.AllowAllOrigins = true
			cc.AllowCredentials = false
		}
		e.Use(cors.New(cc))
	}
	e.Use(identify(authn), markUploads(uploads))
	if limiter != nil {
		e.Use(gin.HandlerFunc(limiter))
	}
	e.Use(bodyRules(cfg.HTTP.BodyLimitBytes, bodies))
	e.Use(inputRules(bodies))

	e.NoRoute(func(c *gin.Context) {
		Error(c, apperr.NotFoundf("Not found: %s %s", c.Request.Method, c.Request.URL.Path))
	})
	e.NoMethod(func(c *gin.Context) {
		Error(c, apperr.New(apperr.MethodNotAllowed, "", "Method not allowed"))
	})

	if health != nil {
		e.GET("/health", health.Handle)
		e.GET("/ready", health.Ready)
	}
	r := &Routes{API: e.Group("/api/v1"), Root: &e.RouterGroup, bodies: bodies, uploads: uploads}
	for _, m := range modules {
		m.RegisterRoutes(r)
	}
	return &Server{Engine: e, cfg: cfg, log: logger, idle: idle}, nil
}

// ServeHTTP lets tests drive the engine.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.Engine.ServeHTTP(w, r) }

// ListenAndServe serves until ctx ends, then shuts down gracefully.
func (s *Server) ListenAndServe(ctx context.Context) error {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", s.cfg.HTTP.Addr)
	if err != nil {
		return err
	}
	return s.Serve(ctx, ln)
}

// Serve serves on ln until ctx ends, then drains in-flight requests.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	s.http = &http.Server{
		Handler:           s.Engine,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       s.cfg.HTTP.ReadTimeout,
		WriteTimeout:      s.cfg.HTTP.WriteTimeout,
		IdleTimeout:       2 * time.Minute,
	}
	errc := make(chan error, 1)
	go func() { errc <- s.http.Serve(ln) }()
	trimCtx, stopTrim := context.WithCancel(ctx)
	defer stopTrim()
	trimTicks := time.NewTicker(idleTick)
	defer trimTicks.Stop()
	gc := &gcTuner{}
	go s.idle.run(trimCtx, trimTicks.C, gc.idle, gc.busy)
	s.log.Info("listening", zap.String("addr", ln.Addr().String()))
	select {
	case err := <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	case <-ctx.Done():
	}
	s.log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.cfg.HTTP.ShutdownTimeout)
	defer cancel()
	return s.http.Shutdown(sctx)
}
