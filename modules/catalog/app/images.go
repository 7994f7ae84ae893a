package app

import (
	"context"
	"fmt"

	"github.com/gocommerce/commerce/modules/catalog/api"
	"github.com/gocommerce/commerce/modules/catalog/domain"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/patch"
)

// UploadImageCommand adds an image to a product.
type UploadImageCommand struct {
	ProductID string
	Data      []byte
	AltText   string
	// Position is 1-based; 0 (absent) or past the end means last. Images at and after
	// the position move down one place.
	Position int
}

// ImageInput changes an image.
type ImageInput struct {
	AltText  patch.Field[string]
	Position patch.Field[int]
}

// ListImages returns a page of a product's images by position and the total.
func (s *Service) ListImages(ctx context.Context, productID string, activeOnly bool, offset, limit int) ([]api.ImageResource, int64, error) {
	return listParts(ctx, s, s.images, productID, activeOnly, offset, limit, func(_ *domain.Product, i *domain.Image) api.ImageResource {
		return toImageResource(i)
	})
}

// UploadImage checks the file by its content (JPEG, PNG or WebP; INVALID_IMAGE_TYPE),
// its size (IMAGE_TOO_LARGE above uploads.max_size_bytes), reads its dimensions, stores
// it (outside the transaction), then records it at its position. When recording fails
// the stored file is removed again.
func (s *Service) UploadImage(ctx context.Context, cmd UploadImageCommand) (api.ImageResource, error) {
	if !ids.Valid(cmd.ProductID) {
		return api.ImageResource{}, domain.ErrProductNotFound
	}
	if _, err := s.products.Get(ctx, cmd.ProductID); err != nil {
		return api.ImageResource{}, err
	}
	if s.settings.MaxImageBytes > 0 && int64(len(cmd.Data)) > s.settings.MaxImageBytes {
		return api.ImageResource{}, ImageTooLarge(s.settings.MaxImageBytes)
	}
	if len(cmd.Data) == 0 {
		return api.ImageResource{}, apperr.Validation(map[string]string{"file": "is required (a JPEG, PNG or WebP file)"})
	}
	if cmd.Position < 0 {
		return api.ImageResource{}, apperr.Validation(map[string]string{"position": "must be at least 1"})
	}
	if err := domain.CheckAltText(cmd.AltText); err != nil {
		return api.ImageResource{}, err
	}
	info, err := domain.InspectImage(cmd.Data)
	if err != nil {
		return api.ImageResource{}, err
	}
	img := &domain.Image{
		ID: s.newID(), ProductID: cmd.ProductID, AltText: cmd.AltText, Width: info.Width, Height: info.Height,
		FileSize: int64(len(cmd.Data)), FileType: info.MIME, CreatedAt: s.clock.Now(),
	}
	img.StorageKey = img.ID + "." + info.Ext
	url, err := s.storage.Put(ctx, img.StorageKey, info.MIME, cmd.Data)
	if err != nil {
		return api.ImageResource{}, fmt.Errorf("catalog: store image: %w", err)
	}
	img.URL = url
	err = s.tx.InTx(ctx, func(ctx context.Context) error {
		if _, err := s.products.GetForUpdate(ctx, cmd.ProductID); err != nil {
			return err
		}
		n, err := s.images.Count(ctx, cmd.ProductID)
		if err != nil {
			return err
		}
		img.Position = domain.ClampPosition(cmd.Position, n)
		if img.Position <= n {
			if err := s.images.Shift(ctx, cmd.ProductID, img.Position, 0, 1); err != nil {
				return err
			}
		}
		return s.images.Create(ctx, img)
	})
	if err != nil {
		s.removeFiles(ctx, []string{img.StorageKey})
		return api.ImageResource{}, err
	}
	return toImageResource(img), nil
}

// ImageTooLarge is IMAGE_TOO_LARGE naming the limit.
func ImageTooLarge(limit int64) error {
	return domain.ErrImageTooLarge.WithMessage("Image exceeds the size limit of %d bytes", limit).WithField("file", fmt.Sprintf("must be at most %d bytes", limit))
}

// UpdateImage changes alt_text and/or position (1-based; past the end means last);
// the images in between move by one place.
func (s *Service) UpdateImage(ctx context.Context, productID, imageID string, in ImageInput) (api.ImageResource, error) {
	if !ids.Valid(productID) {
		return api.ImageResource{}, domain.ErrProductNotFound
	}
	if !ids.Valid(imageID) {
		return api.ImageResource{}, domain.ErrImageNotFound
	}
	bad := map[string]string{}
	if in.AltText.Set {
		if in.AltText.Null {
			bad["alt_text"] = "must not be null"
		} else if err := domain.CheckAltText(in.AltText.Value); err != nil {
			bad["alt_text"] = "must be at most 512 characters"
		}
	}
	if in.Position.Set && (in.Position.Null || in.Position.Value < 1) {
		bad["position"] = "must be an integer of at least 1"
	}
	if len(bad) > 0 {
		return api.ImageResource{}, apperr.Validation(bad)
	}
	var out api.ImageResource
	err := s.tx.InTx(ctx, func(ctx context.Context) error {
		img, err := s.lockImage(ctx, productID, imageID)
		if err != nil {
			return err
		}
		if in.AltText.Set {
			img.AltText = in.AltText.Value
		}
		if in.Position.Set {
			n, err := s.images.Count(ctx, productID)
			if err != nil {
				return err
			}
			to := min(in.Position.Value, n)
			switch {
			case to < img.Position:
				err = s.images.Shift(ctx, productID, to, img.Position-1, 1)
			case to > img.Position:
				err = s.images.Shift(ctx, productID, img.Position+1, to, -1)
			}
			if err != nil {
				return err
			}
			img.Position = to
		}
		if err := s.images.Update(ctx, img); err != nil {
			return err
		}
		out = toImageResource(img)
		return nil
	})
	return result(out, err)
}

// DeleteImage removes an image record (the images after it move up) and, after commit,
// its stored file.
func (s *Service) DeleteImage(ctx context.Context, productID, imageID string) error {
	if !ids.Valid(productID) {
		return domain.ErrProductNotFound
	}
	if !ids.Valid(imageID) {
		return domain.ErrImageNotFound
	}
	var key string
	err := s.tx.InTx(ctx, func(ctx context.Context) error {
		img, err := s.lockImage(ctx, productID, imageID)
		if err != nil {
			return err
		}
		if err := s.images.Delete(ctx, productID, imageID); err != nil {
			return err
		}
		key = img.StorageKey
		return s.images.Shift(ctx, productID, img.Position+1, 0, -1)
	})
	if err != nil {
		return err
	}
	s.removeFiles(ctx, []string{key})
	return nil
}

// lockImage locks the product and reads its image.
func (s *Service) lockImage(ctx context.Context, productID, imageID string) (*domain.Image, error) {
	if _, err := s.products.GetForUpdate(ctx, productID); err != nil {
		return nil, err
	}
	return s.images.Get(ctx, productID, imageID)
}
