package httpx

import "github.com/gin-gonic/gin"

// uploadKey marks a request routed to an upload route.
const uploadKey = "httpx_upload"

// uploadRoutes is the set of upload routes: method → gin full path → true. It is filled
// while modules register their routes and only read once the server serves.
type uploadRoutes map[string]map[string]bool

func (u uploadRoutes) add(method, fullPath string) {
	if u[method] == nil {
		u[method] = map[string]bool{}
	}
	u[method][fullPath] = true
}

// markUploads marks requests whose route takes multipart bodies, for IsUpload (the rate
// limiter, installed after it, gives them the upload limit: decision 0105).
func markUploads(u uploadRoutes) gin.HandlerFunc {
	return func(c *gin.Context) {
		if paths := u[c.Request.Method]; paths != nil && paths[c.FullPath()] {
			c.Set(uploadKey, true)
		}
		c.Next()
	}
}

// IsUpload reports whether the request is routed to an upload route: one a module
// registered with Routes.AllowMultipart (or AllowBody with a multipart/* type).
func IsUpload(c *gin.Context) bool { return c.GetBool(uploadKey) }
