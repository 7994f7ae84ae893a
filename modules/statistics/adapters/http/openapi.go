package http

import _ "embed" // the OpenAPI fragment

//go:embed openapi.yaml
var openAPI []byte

// OpenAPI returns the module's OpenAPI fragment (its paths and schemas), merged by
// platform/openapi into the served document.
func OpenAPI() []byte { return openAPI }
