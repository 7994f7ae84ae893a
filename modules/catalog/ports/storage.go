package ports

import "context"

// ImageStorage keeps uploaded image files and says where the public can fetch them.
// Implementations: adapters/localdisk (default) and adapters/s3.
type ImageStorage interface {
	// Put stores data under key with its content type and returns the public URL.
	Put(ctx context.Context, key, contentType string, data []byte) (url string, err error)
	// Delete removes the object; a missing object is not an error.
	Delete(ctx context.Context, key string) error
}
