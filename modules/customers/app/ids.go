package app

import "github.com/gocommerce/commerce/platform/ids"

func newID() string { return ids.New() }
