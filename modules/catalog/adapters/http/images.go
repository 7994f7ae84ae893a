package http

import (
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/modules/catalog/api"
	"github.com/gocommerce/commerce/modules/catalog/app"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/patch"
)

// maxFormField bounds the text fields of the upload form.
const maxFormField = 4 << 10

// listImages answers GET /api/v1/products/{id}/images (by position).
func (h *Handler) listImages(c *gin.Context, page httpx.Page) ([]api.ImageResource, int64, error) {
	return h.svc.ListImages(c.Request.Context(), c.Param("id"), productsActiveOnly(c), page.Offset(), page.Limit())
}

// uploadImage answers POST /api/v1/products/{id}/images (multipart/form-data: file,
// alt_text, position): 201 {data: image}. The form is streamed: the file part is read
// up to the limit and no further (IMAGE_TOO_LARGE).
func (h *Handler) uploadImage(c *gin.Context) {
	mr, err := c.Request.MultipartReader()
	if err != nil {
		httpx.Error(c, apperr.Validation(map[string]string{"body": "must be multipart/form-data with a file part"}))
		return
	}
	cmd := app.UploadImageCommand{ProductID: c.Param("id")}
	hasFile := false
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			httpx.Error(c, h.formError(err))
			return
		}
		switch part.FormName() {
		case "file":
			data, err := io.ReadAll(io.LimitReader(part, h.settings.MaxImageBytes+1))
			if err != nil {
				httpx.Error(c, h.formError(err))
				return
			}
			if int64(len(data)) > h.settings.MaxImageBytes {
				httpx.Error(c, app.ImageTooLarge(h.settings.MaxImageBytes))
				return
			}
			cmd.Data, hasFile = data, true
		case "alt_text", "position":
			v, err := readField(part)
			if err != nil {
				httpx.Error(c, h.formError(err))
				return
			}
			if part.FormName() == "alt_text" {
				cmd.AltText = v
			} else if v = strings.TrimSpace(v); v != "" {
				n, err := strconv.Atoi(v)
				if err != nil || n < 1 {
					httpx.Error(c, apperr.Validation(map[string]string{"position": "must be an integer of at least 1"}))
					return
				}
				cmd.Position = n
			}
		default:
			if _, err := io.Copy(io.Discard, part); err != nil {
				httpx.Error(c, h.formError(err))
				return
			}
		}
	}
	if !hasFile {
		httpx.Error(c, apperr.Validation(map[string]string{"file": "is required (a JPEG, PNG or WebP file)"}))
		return
	}
	img, err := h.svc.UploadImage(c.Request.Context(), cmd)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusCreated, httpx.Data(img))
}

func readField(part *multipart.Part) (string, error) {
	b, err := io.ReadAll(io.LimitReader(part, maxFormField+1))
	if err != nil {
		return "", err
	}
	if len(b) > maxFormField {
		return "", apperr.Validation(map[string]string{part.FormName(): "is too long"})
	}
	return string(b), nil
}

// formError maps a multipart reading error: the body limit is IMAGE_TOO_LARGE.
func (h *Handler) formError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return app.ImageTooLarge(h.settings.MaxImageBytes)
	}
	if _, ok := apperr.As(err); ok {
		return err
	}
	return apperr.Validation(map[string]string{"body": "is not a valid multipart/form-data body"})
}

func imageInput(b *patch.Body) app.ImageInput {
	return app.ImageInput{AltText: b.String("alt_text"), Position: b.Int("position")}
}

// updateImage answers PUT /api/v1/products/{id}/images/{image_id} (alt_text, position).
func (h *Handler) updateImage(c *gin.Context, in app.ImageInput) (api.ImageResource, error) {
	return h.svc.UpdateImage(c.Request.Context(), c.Param("id"), c.Param("image_id"), in)
}

// deleteImage answers DELETE /api/v1/products/{id}/images/{image_id}: 204; the stored
// file is removed too.
func (h *Handler) deleteImage(c *gin.Context) error {
	return h.svc.DeleteImage(c.Request.Context(), c.Param("id"), c.Param("image_id"))
}
