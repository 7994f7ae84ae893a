package http

import (
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/modules/shipping/app"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/httpxtest"
)

// The rates query: any query string is understood or refused with a 400 naming the
// bad parameters (never a panic, never another status).
func FuzzRatesQuery(f *testing.F) {
	svc := app.NewService(nil, nil, nil, nil, nil, nil, clock.New(), app.Settings{})
	httpxtest.FuzzQuery(f, []string{"",
		"from_country=US&from_zip=10001&to_country=US&to_zip=94105&weight=2",
		"from_country=us&from_zip=10001&to_country=GB&to_zip=SW1A%201AA&weight=4.4092&weight_unit=LB&length=10&width=5&height=4&dimension_unit=in",
		"from_country=US&from_zip=10001&to_country=US&to_zip=94105&weight=1e3&carriers=ups,,dhl&currency=eur",
		"from_country=XX&from_zip=%00&to_country=&weight=-1&weight_unit=stone&dimension_unit=mm&length=0",
		"from_country=US&from_zip=10001&to_country=US&to_zip=94105&weight=99999999999999999999&service_code=03&carriers=UPS",
	}, func(c *gin.Context) error { return svc.ValidateRates(RatesInput(c)) })
}
