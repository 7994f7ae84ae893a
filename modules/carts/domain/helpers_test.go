package domain_test

import "github.com/gocommerce/commerce/platform/apperr"

// errByCode is an error matching any error with the code (apperr matches on codes).
func errByCode(code string) error { return apperr.New(apperr.Invalid, code, "") }
