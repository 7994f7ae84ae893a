package httpx

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"

	"github.com/gin-gonic/gin"
	"github.com/gin-gonic/gin/binding"
	"github.com/go-playground/validator/v10"

	"github.com/gocommerce/commerce/platform/apperr"
)

var errTrailingData = errors.New("data after the JSON value")

// inline stands in a field's name for a struct embedded without a JSON name, so a body
// type can share members through embedding and its errors still name the members as
// the body has them ("product_id", not "target.product_id").
const inline = "(inline)"

func init() {
	if v, ok := binding.Validator.Engine().(*validator.Validate); ok {
		v.RegisterTagNameFunc(func(f reflect.StructField) string {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" {
				return ""
			}
			if name == "" && f.Anonymous {
				return inline // encoding/json promotes its members: name them alone
			}
			if name == "" {
				return f.Name
			}
			return name
		})
	}
}

// BindJSON decodes the body into dst and runs its `binding` rules. Errors become a 400
// validation envelope naming each bad field (or 413 for an oversized body).
func BindJSON(c *gin.Context, dst any) error {
	if c.Request.Body == nil || c.Request.ContentLength == 0 {
		if err := binding.Validator.ValidateStruct(dst); err != nil {
			return validationError(err)
		}
		return nil
	}
	dec := json.NewDecoder(c.Request.Body)
	dec.UseNumber()
	err := dec.Decode(dst)
	if err == nil {
		// Only whitespace may follow the value: `{...} xyz` or `{...}{...}` is not JSON.
		if _, terr := dec.Token(); !errors.Is(terr, io.EOF) {
			err = errTrailingData
			var mbe *http.MaxBytesError
			if errors.As(terr, &mbe) {
				err = terr
			}
		}
	}
	if err != nil {
		if errors.Is(err, io.EOF) {
			return validationError(binding.Validator.ValidateStruct(dst))
		}
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return apperr.New(apperr.TooLarge, "", fmt.Sprintf("Request body exceeds %d bytes", mbe.Limit))
		}
		var ute *json.UnmarshalTypeError
		if errors.As(err, &ute) {
			field := ute.Field
			if field == "" {
				field = "body"
			}
			return apperr.Validation(map[string]string{field: fmt.Sprintf("must be %s", jsonKind(ute.Type))})
		}
		return apperr.Validation(map[string]string{"body": "must be a valid JSON object"}).WithMessage("Request body is not valid JSON")
	}
	if err := binding.Validator.ValidateStruct(dst); err != nil {
		return validationError(err)
	}
	return nil
}

func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	default:
		return "of type " + t.String()
	}
}

func validationError(err error) error {
	if err == nil {
		return nil
	}
	var verrs validator.ValidationErrors
	if !errors.As(err, &verrs) {
		return apperr.Validation(map[string]string{"body": err.Error()})
	}
	fields := map[string]string{}
	for _, fe := range verrs {
		ns := strings.ReplaceAll(fe.Namespace(), inline+".", "")
		if i := strings.Index(ns, "."); i >= 0 {
			ns = ns[i+1:]
		}
		fields[ns] = fieldMessage(fe)
	}
	return apperr.Validation(fields)
}

func fieldMessage(fe validator.FieldError) string {
	switch fe.Tag() {
	case "required":
		return "is required"
	case "email":
		return "must be a valid email address"
	case "min":
		return "must be at least " + fe.Param()
	case "max":
		return "must be at most " + fe.Param()
	case "gte":
		return "must be greater than or equal to " + fe.Param()
	case "lte":
		return "must be less than or equal to " + fe.Param()
	case "oneof":
		return "must be one of: " + strings.ReplaceAll(fe.Param(), " ", ", ")
	case "uuid", "uuid4":
		return "must be a UUID"
	case "url", "http_url":
		return "must be a valid URL"
	case "len":
		return "must have length " + fe.Param()
	}
	return "is invalid (" + fe.Tag() + ")"
}
