package postgres

import (
	"time"

	"github.com/gocommerce/commerce/modules/statistics/domain"
)

// shiftDay is the day n days after day (YYYY-MM-DD).
func shiftDay(day string, n int) string {
	t, err := time.Parse(domain.DayLayout, day)
	if err != nil {
		return day
	}
	return t.AddDate(0, 0, n).Format(domain.DayLayout)
}
