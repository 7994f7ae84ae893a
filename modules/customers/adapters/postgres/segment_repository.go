package postgres

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"gorm.io/gorm"

	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/platform/db"
)

// Create inserts a segment; names are unique case-insensitively.
func (r *SegmentRepository) Create(ctx context.Context, s *domain.Segment) error {
	q, err := json.Marshal(s.Query)
	if err != nil {
		return fmt.Errorf("segments: query: %w", err)
	}
	row := segmentRow{ID: string(s.ID), Name: s.Name, NameKey: strings.ToLower(s.Name), Query: string(q), CreatedAt: s.CreatedAt.UTC(), UpdatedAt: s.UpdatedAt.UTC()}
	return db.Insert(r.db.Conn(ctx), &row, domain.ErrSegmentNameTaken, "segments: insert")
}

// Get loads a segment and parses its stored query again.
func (r *SegmentRepository) Get(ctx context.Context, id domain.SegmentID) (*domain.Segment, error) {
	row, err := db.First[segmentRow](r.db.Conn(ctx).Where("id = ?", string(id)), domain.ErrSegmentNotFound, "segments: select")
	if err != nil {
		return nil, err
	}
	return row.toDomain()
}

// List returns a page of segments by name.
func (r *SegmentRepository) List(ctx context.Context, offset, limit int) ([]*domain.Segment, int64, error) {
	q := r.db.Conn(ctx).Model(&segmentRow{}).Session(&gorm.Session{})
	rows, total, err := db.Page[segmentRow](q, "name_key, id", offset, limit, "segments: count", "segments: list")
	if err != nil {
		return nil, 0, err
	}
	out, err := db.MapErr(rows, segmentRow.toDomain)
	return out, total, err
}

// Delete removes a segment.
func (r *SegmentRepository) Delete(ctx context.Context, id domain.SegmentID) error {
	return db.One(r.db.Conn(ctx).Where("id = ?", string(id)).Delete(&segmentRow{}), domain.ErrSegmentNotFound, "segments: delete")
}

func (r segmentRow) toDomain() (*domain.Segment, error) {
	var q map[string]any
	dec := json.NewDecoder(bytes.NewReader([]byte(r.Query)))
	dec.UseNumber()
	if err := dec.Decode(&q); err != nil {
		return nil, fmt.Errorf("segment %s: query: %w", r.ID, err)
	}
	conds, bad := domain.ParseQuery(q)
	if bad != nil {
		return nil, fmt.Errorf("segment %s: stored query no longer valid: %v", r.ID, bad)
	}
	return &domain.Segment{ID: domain.SegmentID(r.ID), Name: r.Name, Query: q, Conditions: conds, CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC()}, nil
}
