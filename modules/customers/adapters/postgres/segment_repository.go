package postgres

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/modules/customers/ports"
	"github.com/gocommerce/commerce/platform/db"
)

// SegmentRepository implements ports.SegmentRepository on customers_segments.
type SegmentRepository struct{ db *db.DB }

var _ ports.SegmentRepository = (*SegmentRepository)(nil)

// NewSegmentRepository builds the repository.
func NewSegmentRepository(d *db.DB) *SegmentRepository { return &SegmentRepository{db: d} }

// Create inserts a segment; names are unique case-insensitively.
func (r *SegmentRepository) Create(ctx context.Context, s *domain.Segment) error {
	q, err := json.Marshal(s.Query)
	if err != nil {
		return fmt.Errorf("segments: query: %w", err)
	}
	row := segmentRow{ID: string(s.ID), Name: s.Name, NameKey: strings.ToLower(s.Name), Query: string(q), CreatedAt: s.CreatedAt.UTC(), UpdatedAt: s.UpdatedAt.UTC()}
	if err := r.db.Conn(ctx).Create(&row).Error; err != nil {
		if db.IsDuplicate(err) {
			return domain.ErrSegmentNameTaken
		}
		return fmt.Errorf("segments: insert: %w", err)
	}
	return nil
}

// Get loads a segment and parses its stored query again.
func (r *SegmentRepository) Get(ctx context.Context, id domain.SegmentID) (*domain.Segment, error) {
	var rows []segmentRow
	if err := r.db.Conn(ctx).Where("id = ?", string(id)).Limit(1).Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("segments: select: %w", err)
	}
	if len(rows) == 0 {
		return nil, domain.ErrSegmentNotFound
	}
	return rows[0].toDomain()
}

// List returns a page of segments by name.
func (r *SegmentRepository) List(ctx context.Context, offset, limit int) ([]*domain.Segment, int64, error) {
	var total int64
	if err := r.db.Conn(ctx).Model(&segmentRow{}).Count(&total).Error; err != nil {
		return nil, 0, fmt.Errorf("segments: count: %w", err)
	}
	var rows []segmentRow
	if err := r.db.Conn(ctx).Order("name_key, id").Offset(offset).Limit(limit).Find(&rows).Error; err != nil {
		return nil, 0, fmt.Errorf("segments: list: %w", err)
	}
	out := make([]*domain.Segment, 0, len(rows))
	for _, row := range rows {
		s, err := row.toDomain()
		if err != nil {
			return nil, 0, err
		}
		out = append(out, s)
	}
	return out, total, nil
}

// Delete removes a segment.
func (r *SegmentRepository) Delete(ctx context.Context, id domain.SegmentID) error {
	res := r.db.Conn(ctx).Where("id = ?", string(id)).Delete(&segmentRow{})
	if res.Error != nil {
		return fmt.Errorf("segments: delete: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return domain.ErrSegmentNotFound
	}
	return nil
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
