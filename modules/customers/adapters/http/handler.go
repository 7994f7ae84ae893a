// Package http is the customers module's HTTP face (gin handlers, JSON DTOs, routes).
package http

import (
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/platform/httpx"
)

// Handler serves the customers endpoints.
type Handler struct {
	customers api.Customers
}

// NewHandler builds the handler.
func NewHandler(customers api.Customers) *Handler { return &Handler{customers: customers} }

// RegisterRoutes mounts the customers routes on /api/v1.
func (h *Handler) RegisterRoutes(r *httpx.Routes) {
	r.API.GET("/customers/:id", httpx.Require("customers:read"), h.get)
}

// get answers GET /api/v1/customers/{id_or_email}. A customer principal may read only
// their own record; another customer's id answers 404 as if it did not exist.
func (h *Handler) get(c *gin.Context) {
	key := c.Param("id")
	var (
		cust api.Customer
		err  error
	)
	if strings.Contains(key, "@") {
		cust, err = h.customers.FindCustomerByEmail(c.Request.Context(), key)
	} else {
		cust, err = h.customers.GetCustomer(c.Request.Context(), key)
	}
	if err != nil {
		httpx.Error(c, err)
		return
	}
	if p := httpx.Principal(c); p.IsCustomer() && p.ID != cust.ID {
		httpx.Error(c, domain.ErrCustomerNotFound)
		return
	}
	c.JSON(http.StatusOK, httpx.Data(toCustomerResponse(cust)))
}
