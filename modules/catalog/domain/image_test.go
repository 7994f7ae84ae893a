package domain

import (
	"bytes"
	"encoding/base64"
	"errors"
	"image"
	"image/jpeg"
	"image/png"
	"testing"
)

func TestInspectImage(t *testing.T) {
	t.Parallel()
	var pngBuf, jpgBuf bytes.Buffer
	if err := png.Encode(&pngBuf, image.NewRGBA(image.Rect(0, 0, 7, 3))); err != nil {
		t.Fatal(err)
	}
	if err := jpeg.Encode(&jpgBuf, image.NewGray(image.Rect(0, 0, 4, 9)), nil); err != nil {
		t.Fatal(err)
	}
	lossless, _ := base64.StdEncoding.DecodeString("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==")
	lossy, _ := base64.StdEncoding.DecodeString("UklGRiIAAABXRUJQVlA4IBYAAAAwAQCdASoBAAEADsD+JaQAA3AAAAAA")
	good := []struct {
		name string
		data []byte
		mime string
		w, h int
	}{
		{"png", pngBuf.Bytes(), MIMEPNG, 7, 3},
		{"jpeg", jpgBuf.Bytes(), MIMEJPEG, 4, 9},
		{"webp lossless", lossless, MIMEWebP, 1, 1},
		{"webp lossy", lossy, MIMEWebP, 1, 1},
	}
	for _, c := range good {
		info, err := InspectImage(c.data)
		if err != nil || info.MIME != c.mime || info.Width != c.w || info.Height != c.h {
			t.Errorf("%s: %+v %v", c.name, info, err)
		}
	}
	for name, data := range map[string][]byte{
		"text": []byte("plain text"), "gif": []byte("GIF89a\x01\x00\x01\x00"), "empty": nil,
		"png header only": pngBuf.Bytes()[:16], "riff not webp": []byte("RIFF\x00\x00\x00\x00WAVEfmt "),
		"html": []byte("<html><body>x</body></html>"), "svg": []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`),
	} {
		if _, err := InspectImage(data); !errors.Is(err, ErrInvalidImageType) {
			t.Errorf("%s: %v", name, err)
		}
	}
}
