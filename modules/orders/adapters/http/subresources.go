package http

import (
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/modules/orders/api"
	"github.com/gocommerce/commerce/modules/orders/app"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/httpx"
)

func (h *Handler) addLineItem(c *gin.Context, req lineItemRequest) (api.Order, error) {
	in := api.LineItemInput{ProductID: strings.TrimSpace(req.ProductID), VariantID: strings.TrimSpace(req.VariantID)}
	if req.Quantity == nil {
		return api.Order{}, apperr.Validation(map[string]string{"quantity": "is required"})
	}
	in.Quantity = *req.Quantity
	if req.Price != nil {
		in.Price = *req.Price
		if strings.TrimSpace(in.Price) == "" {
			return api.Order{}, apperr.Validation(map[string]string{"price": "must be a decimal string"})
		}
	}
	return h.app.AddLineItem(c.Request.Context(), actor(c), c.Param("id"), in)
}

func (h *Handler) changeLineItem(c *gin.Context, req changeLineItemRequest) (api.Order, error) {
	return h.app.ChangeLineItem(c.Request.Context(), actor(c), c.Param("id"), c.Param("line_item_id"), app.ChangeLineItemCommand{Quantity: req.Quantity, Price: req.Price})
}

func (h *Handler) removeLineItem(c *gin.Context) (api.Order, error) {
	return h.app.RemoveLineItem(c.Request.Context(), actor(c), c.Param("id"), c.Param("line_item_id"))
}

func (h *Handler) listFulfillments(c *gin.Context, p httpx.Page) ([]api.Fulfillment, int64, error) {
	return h.queries.Fulfillments(c.Request.Context(), actor(c), c.Param("id"), p.Offset(), p.Limit())
}

func (h *Handler) getFulfillment(c *gin.Context) (api.Fulfillment, error) {
	return h.queries.Fulfillment(c.Request.Context(), actor(c), c.Param("id"), c.Param("fulfillment_id"))
}

func (h *Handler) createFulfillment(c *gin.Context, cmd app.FulfillCommand) (api.Fulfillment, error) {
	return h.app.CreateFulfillment(c.Request.Context(), actor(c), c.Param("id"), cmd)
}

func (h *Handler) updateFulfillment(c *gin.Context, req fulfillmentRequest) (api.Fulfillment, error) {
	return h.app.UpdateFulfillment(c.Request.Context(), actor(c), c.Param("id"), c.Param("fulfillment_id"), req.tracking())
}

func (h *Handler) cancelFulfillment(c *gin.Context) (api.Fulfillment, error) {
	return h.app.CancelFulfillment(c.Request.Context(), actor(c), c.Param("id"), c.Param("fulfillment_id"))
}

func (h *Handler) listNotes(c *gin.Context, p httpx.Page) ([]api.Note, int64, error) {
	return h.queries.Notes(c.Request.Context(), actor(c), c.Param("id"), p.Offset(), p.Limit())
}

func (h *Handler) addNote(c *gin.Context, req noteRequest) (api.Note, error) {
	return h.app.AddNote(c.Request.Context(), actor(c), c.Param("id"), app.AddNoteCommand{Body: req.Body, Author: req.Author, NotifyCustomer: req.NotifyCustomer})
}

func (h *Handler) deleteNote(c *gin.Context) error {
	return h.app.DeleteNote(c.Request.Context(), actor(c), c.Param("id"), c.Param("note_id"))
}

func (h *Handler) calculateRefund(c *gin.Context, in app.RefundInput) (api.RefundCalculation, error) {
	return h.app.CalculateRefund(c.Request.Context(), actor(c), c.Param("id"), in)
}

func (h *Handler) createRefund(c *gin.Context, in app.RefundInput) (api.Refund, error) {
	return h.app.CreateRefund(c.Request.Context(), actor(c), c.Param("id"), in)
}

func (h *Handler) listRefunds(c *gin.Context, p httpx.Page) ([]api.Refund, int64, error) {
	return h.queries.Refunds(c.Request.Context(), actor(c), c.Param("id"), p.Offset(), p.Limit())
}

func (h *Handler) listTransactions(c *gin.Context, p httpx.Page) ([]api.Transaction, int64, error) {
	return h.queries.Transactions(c.Request.Context(), actor(c), c.Param("id"), p.Offset(), p.Limit())
}

func (h *Handler) createTransaction(c *gin.Context, req transactionRequest) (api.Transaction, error) {
	return h.app.CreateTransaction(c.Request.Context(), actor(c), c.Param("id"), app.TransactionCommand{
		Kind: strings.TrimSpace(req.Kind), Amount: req.Amount, Gateway: req.Gateway, ParentID: strings.TrimSpace(req.ParentID),
	})
}

func (h *Handler) risks(c *gin.Context) (api.Risk, error) {
	return h.queries.Risk(c.Request.Context(), actor(c), c.Param("id"))
}
