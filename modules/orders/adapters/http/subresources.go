package http

import (
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/modules/orders/api"
	"github.com/gocommerce/commerce/modules/orders/app"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/httpx"
)

func (h *Handler) addLineItem(c *gin.Context) {
	var req lineItemRequest
	if err := httpx.BindJSON(c, &req); err != nil {
		httpx.Error(c, err)
		return
	}
	in := api.LineItemInput{ProductID: strings.TrimSpace(req.ProductID), VariantID: strings.TrimSpace(req.VariantID)}
	if req.Quantity == nil {
		httpx.Error(c, apperr.Validation(map[string]string{"quantity": "is required"}))
		return
	}
	in.Quantity = *req.Quantity
	if req.Price != nil {
		in.Price = *req.Price
		if strings.TrimSpace(in.Price) == "" {
			httpx.Error(c, apperr.Validation(map[string]string{"price": "must be a decimal string"}))
			return
		}
	}
	o, err := h.app.AddLineItem(c.Request.Context(), actor(c), c.Param("id"), in)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusCreated, httpx.Data(o))
}

func (h *Handler) changeLineItem(c *gin.Context) {
	var req changeLineItemRequest
	if err := httpx.BindJSON(c, &req); err != nil {
		httpx.Error(c, err)
		return
	}
	o, err := h.app.ChangeLineItem(c.Request.Context(), actor(c), c.Param("id"), c.Param("line_item_id"), app.ChangeLineItemCommand{Quantity: req.Quantity, Price: req.Price})
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.Data(o))
}

func (h *Handler) removeLineItem(c *gin.Context) {
	o, err := h.app.RemoveLineItem(c.Request.Context(), actor(c), c.Param("id"), c.Param("line_item_id"))
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.Data(o))
}

func (h *Handler) listFulfillments(c *gin.Context) {
	p, err := httpx.ParsePage(c)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	items, total, err := h.queries.Fulfillments(c.Request.Context(), actor(c), c.Param("id"), p.Offset(), p.Limit())
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.NewList(items, p, total))
}

func (h *Handler) getFulfillment(c *gin.Context) {
	f, err := h.queries.Fulfillment(c.Request.Context(), actor(c), c.Param("id"), c.Param("fulfillment_id"))
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.Data(f))
}

func (h *Handler) createFulfillment(c *gin.Context) {
	var req fulfillmentRequest
	if err := httpx.BindJSON(c, &req); err != nil {
		httpx.Error(c, err)
		return
	}
	cmd, err := req.command()
	if err != nil {
		httpx.Error(c, err)
		return
	}
	f, err := h.app.CreateFulfillment(c.Request.Context(), actor(c), c.Param("id"), cmd)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusCreated, httpx.Data(f))
}

func (h *Handler) updateFulfillment(c *gin.Context) {
	var req fulfillmentRequest
	if err := httpx.BindJSON(c, &req); err != nil {
		httpx.Error(c, err)
		return
	}
	f, err := h.app.UpdateFulfillment(c.Request.Context(), actor(c), c.Param("id"), c.Param("fulfillment_id"), req.tracking())
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.Data(f))
}

func (h *Handler) cancelFulfillment(c *gin.Context) {
	f, err := h.app.CancelFulfillment(c.Request.Context(), actor(c), c.Param("id"), c.Param("fulfillment_id"))
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.Data(f))
}

func (h *Handler) listNotes(c *gin.Context) {
	p, err := httpx.ParsePage(c)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	items, total, err := h.queries.Notes(c.Request.Context(), actor(c), c.Param("id"), p.Offset(), p.Limit())
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.NewList(items, p, total))
}

func (h *Handler) addNote(c *gin.Context) {
	var req noteRequest
	if err := httpx.BindJSON(c, &req); err != nil {
		httpx.Error(c, err)
		return
	}
	n, err := h.app.AddNote(c.Request.Context(), actor(c), c.Param("id"), app.AddNoteCommand{Body: req.Body, Author: req.Author, NotifyCustomer: req.NotifyCustomer})
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusCreated, httpx.Data(n))
}

func (h *Handler) deleteNote(c *gin.Context) {
	if err := h.app.DeleteNote(c.Request.Context(), actor(c), c.Param("id"), c.Param("note_id")); err != nil {
		httpx.Error(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

func (h *Handler) refundInput(c *gin.Context) (app.RefundInput, bool) {
	var req refundRequest
	if err := httpx.BindJSON(c, &req); err != nil {
		httpx.Error(c, err)
		return app.RefundInput{}, false
	}
	in, err := req.input()
	if err != nil {
		httpx.Error(c, err)
		return app.RefundInput{}, false
	}
	return in, true
}

func (h *Handler) calculateRefund(c *gin.Context) {
	in, ok := h.refundInput(c)
	if !ok {
		return
	}
	calc, err := h.app.CalculateRefund(c.Request.Context(), actor(c), c.Param("id"), in)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.Data(calc))
}

func (h *Handler) createRefund(c *gin.Context) {
	in, ok := h.refundInput(c)
	if !ok {
		return
	}
	r, err := h.app.CreateRefund(c.Request.Context(), actor(c), c.Param("id"), in)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusCreated, httpx.Data(r))
}

func (h *Handler) listRefunds(c *gin.Context) {
	p, err := httpx.ParsePage(c)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	items, total, err := h.queries.Refunds(c.Request.Context(), actor(c), c.Param("id"), p.Offset(), p.Limit())
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.NewList(items, p, total))
}

func (h *Handler) listTransactions(c *gin.Context) {
	p, err := httpx.ParsePage(c)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	items, total, err := h.queries.Transactions(c.Request.Context(), actor(c), c.Param("id"), p.Offset(), p.Limit())
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.NewList(items, p, total))
}

func (h *Handler) createTransaction(c *gin.Context) {
	var req transactionRequest
	if err := httpx.BindJSON(c, &req); err != nil {
		httpx.Error(c, err)
		return
	}
	t, err := h.app.CreateTransaction(c.Request.Context(), actor(c), c.Param("id"), app.TransactionCommand{
		Kind: strings.TrimSpace(req.Kind), Amount: req.Amount, Gateway: req.Gateway, ParentID: strings.TrimSpace(req.ParentID),
	})
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusCreated, httpx.Data(t))
}

func (h *Handler) risks(c *gin.Context) {
	r, err := h.queries.Risk(c.Request.Context(), actor(c), c.Param("id"))
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.Data(r))
}
