package carts_test

import (
	"time"

	"github.com/gocommerce/commerce/modules/carts/ports"
	"github.com/gocommerce/commerce/platform/jobs"
)

// registry records what a module registers.
type registry struct {
	handled  string
	handler  jobs.Handler
	every    string
	interval time.Duration
}

func (r *registry) Handle(taskType string, h jobs.Handler) { r.handled, r.handler = taskType, h }

func (r *registry) Every(taskType string, d time.Duration) { r.every, r.interval = taskType, d }

func taxResult(total string, lines [][3]string) ports.TaxResult {
	r := ports.TaxResult{Total: dec(total)}
	for _, l := range lines {
		r.Breakdown = append(r.Breakdown, ports.TaxJurisdiction{Jurisdiction: l[0], Rate: dec(l[1]), Amount: dec(l[2])})
	}
	return r
}
