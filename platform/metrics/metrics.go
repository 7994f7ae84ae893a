// Package metrics owns the Prometheus registry, the HTTP request metrics and the
// /metrics handler.
package metrics

import (
	"strconv"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/gocommerce/commerce/platform/httpx"
)

// Registry is the process's metric registry.
type Registry struct {
	*prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
}

// New builds the registry with Go and process collectors and HTTP metrics.
func New() *Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	r := &Registry{
		Registry: reg,
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "commerce_http_requests_total", Help: "HTTP requests by method, route and status.",
		}, []string{"method", "route", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "commerce_http_request_duration_seconds", Help: "HTTP request latency by method and route.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}, []string{"method", "route"}),
	}
	reg.MustRegister(r.requests, r.latency)
	return r
}

// Middleware records each request.
func (r *Registry) Middleware() httpx.MetricsMiddleware {
	return func(c *gin.Context) {
		start := time.Now()
		c.Next()
		route := c.FullPath()
		if route == "" {
			route = "unmatched"
		}
		r.requests.WithLabelValues(c.Request.Method, route, strconv.Itoa(c.Writer.Status())).Inc()
		r.latency.WithLabelValues(c.Request.Method, route).Observe(time.Since(start).Seconds())
	}
}

// Module serves GET /metrics.
type Module struct{ reg *Registry }

// NewModule builds the /metrics route module.
func NewModule(reg *Registry) *Module { return &Module{reg: reg} }

// RegisterRoutes adds GET /metrics.
func (m *Module) RegisterRoutes(r *httpx.Routes) {
	h := promhttp.HandlerFor(m.reg.Registry, promhttp.HandlerOpts{Registry: m.reg.Registry})
	r.Root.GET("/metrics", gin.WrapH(h))
}

// Name names the module.
func (m *Module) Name() string { return "metrics" }
