package db

import "context"

// RoundTrips is how many round trips the PostgreSQL transaction ctx carries has made
// so far (-1 when ctx carries none).
func (d *DB) RoundTrips(ctx context.Context) int {
	p := d.pipe(ctx)
	if p == nil {
		return -1
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.trips
}
