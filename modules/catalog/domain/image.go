package domain

import (
	"bytes"
	"image"
	_ "image/jpeg" // JPEG DecodeConfig
	_ "image/png"  // PNG DecodeConfig
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	_ "golang.org/x/image/webp" // WebP DecodeConfig

	"github.com/gocommerce/commerce/platform/apperr"
)

// Image MIME types accepted for upload.
const (
	MIMEJPEG = "image/jpeg"
	MIMEPNG  = "image/png"
	MIMEWebP = "image/webp"
)

// MaxAltTextLength bounds alt_text.
const MaxAltTextLength = 512

// Image is a product image kept in the image storage under StorageKey.
type Image struct {
	ID         string
	ProductID  string
	URL        string
	StorageKey string
	AltText    string
	Position   int // 1-based, contiguous per product
	Width      int
	Height     int
	FileSize   int64
	FileType   string
	CreatedAt  time.Time
}

// ImageInfo is what the content of an uploaded file says about it.
type ImageInfo struct {
	MIME   string
	Ext    string
	Width  int
	Height int
}

// isWebP checks the RIFF container magic: "RIFF" <size> "WEBP".
func isWebP(b []byte) bool {
	return len(b) >= 12 && string(b[0:4]) == "RIFF" && string(b[8:12]) == "WEBP"
}

// InspectImage identifies a JPEG, PNG or WebP file by its content (never its name) and
// reads its dimensions. Other content, or an image whose header does not decode, is
// ErrInvalidImageType.
func InspectImage(data []byte) (ImageInfo, error) {
	head := data[:min(len(data), 512)]
	mime := http.DetectContentType(head)
	if isWebP(head) {
		mime = MIMEWebP
	}
	var info ImageInfo
	switch mime {
	case MIMEJPEG:
		info = ImageInfo{MIME: MIMEJPEG, Ext: "jpg"}
	case MIMEPNG:
		info = ImageInfo{MIME: MIMEPNG, Ext: "png"}
	case MIMEWebP:
		info = ImageInfo{MIME: MIMEWebP, Ext: "webp"}
	default:
		return ImageInfo{}, ErrInvalidImageType.WithMessage("Image must be a JPEG, PNG or WebP file (the content is %s)", strings.TrimSuffix(mime, "; charset=utf-8"))
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 || !strings.HasSuffix(info.MIME, format) {
		return ImageInfo{}, ErrInvalidImageType.WithMessage("Image file is damaged or not a valid %s", strings.TrimPrefix(info.MIME, "image/"))
	}
	info.Width, info.Height = cfg.Width, cfg.Height
	return info, nil
}

// CheckAltText validates alt_text.
func CheckAltText(s string) error {
	if utf8.RuneCountInString(s) > MaxAltTextLength {
		return apperr.Validation(map[string]string{"alt_text": "must be at most 512 characters"})
	}
	return nil
}

// ClampPosition places a requested 1-based position among n items plus the new one:
// 0 or anything past the end means last (n+1), anything below 1 means first.
func ClampPosition(requested, n int) int {
	if requested <= 0 || requested > n+1 {
		return n + 1
	}
	return requested
}
