package main

// rateRoutes are the parcels the rates scenario asks about: domestic, regional and
// international routes in every weight unit, so each carrier's built-in table answers
// with several services (USPS only from the US).
var rateRoutes = []string{
	"from_country=US&from_zip=10001&to_country=US&to_zip=94105&weight=2.5&weight_unit=lb&length=12&width=8&height=6&dimension_unit=in",
	"from_country=US&from_zip=10001&to_country=US&to_zip=10002&weight=800&weight_unit=g",
	"from_country=US&from_zip=10001&to_country=CA&to_zip=M5V%202T6&weight=1.2&weight_unit=kg&length=30&width=20&height=10&dimension_unit=cm",
	"from_country=US&from_zip=94105&to_country=DE&to_zip=10115&weight=40&weight_unit=oz",
	"from_country=DE&from_zip=10115&to_country=FR&to_zip=75001&weight=3&weight_unit=kg",
	"from_country=GB&from_zip=SW1A%201AA&to_country=JP&to_zip=100-0001&weight=5&weight_unit=kg",
}

// ratesPath is a rates query for one of the routes, asking the four carriers.
func ratesPath(i int) string {
	return "/api/v1/shipping/rates?carriers=ups,fedex,usps,dhl&" + rateRoutes[i%len(rateRoutes)]
}

// ratesScenario is GET /shipping/rates on the built-in tables of the four carriers
// (the bench configures no carrier credentials; issue 19). Report-only: the issue
// names no target.
func ratesScenario() *scenario {
	return &scenario{
		key: "rates", title: "GET shipping rates, 4 carriers (built-in tables)", ref: "ref-get", perIteration: 1,
		missing: func(e *env, k *conn) (string, error) {
			return probe(k, "GET", ratesPath(0), nil, bearer(e.key))
		},
		step: func(w *worker) bool {
			w.call(200, "GET", ratesPath(w.rng.IntN(len(rateRoutes))), nil, bearer(w.env.key))
			return true
		},
	}
}
