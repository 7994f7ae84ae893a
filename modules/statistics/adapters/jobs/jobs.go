// Package jobs holds the statistics' background work: the periodic recomputation of
// the customer segments.
package jobs

import (
	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/statistics/app"
	"github.com/gocommerce/commerce/platform/modkit"
)

// TaskRefreshSegments is the periodic segments recomputation.
const TaskRefreshSegments = "statistics:segments"

// Jobs registers and runs the statistics' tasks.
type Jobs struct {
	modkit.Sweep
}

// NewJobs builds the task handlers; the sweep runs every statistics.segments_interval.
func NewJobs(svc *app.Service, s app.Settings, log *zap.Logger) *Jobs {
	return &Jobs{modkit.Sweep{
		Task: TaskRefreshSegments, Every: s.SegmentsInterval, Run: svc.RefreshSegments,
		Log: log.Named("statistics.jobs"), Done: "segment memberships computed",
	}}
}
