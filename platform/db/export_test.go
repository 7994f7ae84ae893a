package db

import "context"

// RoundTrips is how many round trips the PostgreSQL transaction ctx carries has made
// so far (-1 when ctx carries none).
func (d *DB) RoundTrips(ctx context.Context) int {
	p := d.pipe(ctx)
	if p == nil {
		return -1
	}
	return int(p.trips.Load())
}
