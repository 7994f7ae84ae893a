package app

import (
	"context"
	"time"

	"github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/modules/customers/ports"
	"github.com/gocommerce/commerce/platform/ids"
)

// Segment is a segment as the API shows it.
type Segment struct {
	ID        string
	Name      string
	Query     map[string]any
	CreatedAt time.Time
	UpdatedAt time.Time
}

func toSegment(s *domain.Segment) Segment {
	return Segment{ID: string(s.ID), Name: s.Name, Query: s.Query, CreatedAt: s.CreatedAt.UTC(), UpdatedAt: s.UpdatedAt.UTC()}
}

func segmentID(id string) (domain.SegmentID, error) {
	if !ids.Valid(id) {
		return "", domain.ErrSegmentNotFound
	}
	return domain.SegmentID(id), nil
}

// CreateSegment validates and saves a segment (staff and keys only).
func (s *Service) CreateSegment(ctx context.Context, a Actor, name string, query map[string]any) (Segment, error) {
	if err := a.staffWrite(); err != nil {
		return Segment{}, err
	}
	seg, err := domain.NewSegment(domain.SegmentID(s.newID()), name, query, s.clock.Now())
	if err != nil {
		return Segment{}, err
	}
	if err := s.tx.InTx(ctx, func(ctx context.Context) error { return s.segments.Create(ctx, seg) }); err != nil {
		return Segment{}, err
	}
	return toSegment(seg), nil
}

// ListSegments answers a page of segments by name.
func (s *Service) ListSegments(ctx context.Context, a Actor, p Page) ([]Segment, int64, error) {
	if err := a.staffRead(); err != nil {
		return nil, 0, err
	}
	list, total, err := s.segments.List(ctx, p.Offset, p.Limit)
	if err != nil {
		return nil, 0, err
	}
	out := make([]Segment, len(list))
	for i, seg := range list {
		out[i] = toSegment(seg)
	}
	return out, total, nil
}

// GetSegment answers one segment.
func (s *Service) GetSegment(ctx context.Context, a Actor, id string) (Segment, error) {
	if err := a.staffRead(); err != nil {
		return Segment{}, err
	}
	seg, err := s.getSegment(ctx, id)
	if err != nil {
		return Segment{}, err
	}
	return toSegment(seg), nil
}

func (s *Service) getSegment(ctx context.Context, id string) (*domain.Segment, error) {
	sid, err := segmentID(id)
	if err != nil {
		return nil, err
	}
	return s.segments.Get(ctx, sid)
}

// DeleteSegment removes a segment.
func (s *Service) DeleteSegment(ctx context.Context, a Actor, id string) error {
	if err := a.staffWrite(); err != nil {
		return err
	}
	sid, err := segmentID(id)
	if err != nil {
		return err
	}
	return s.tx.InTx(ctx, func(ctx context.Context) error { return s.segments.Delete(ctx, sid) })
}

// SegmentCustomers answers a page of the customers matching the segment now.
func (s *Service) SegmentCustomers(ctx context.Context, a Actor, id string, q ListQuery) ([]api.Customer, int64, error) {
	if err := a.staffRead(); err != nil {
		return nil, 0, err
	}
	seg, err := s.getSegment(ctx, id)
	if err != nil {
		return nil, 0, err
	}
	q.Filter = ports.CustomerFilter{Conditions: seg.Conditions, Now: s.clock.Now()}
	return s.list(ctx, q)
}

// InSegment implements api.Segments.
func (s *Service) InSegment(ctx context.Context, segmentID, customer string) (bool, error) {
	seg, err := s.getSegment(ctx, segmentID)
	if err != nil {
		return false, err
	}
	cid, err := customerID(customer)
	if err != nil {
		return false, nil
	}
	return s.repo.Matches(ctx, cid, ports.CustomerFilter{Conditions: seg.Conditions, Now: s.clock.Now()})
}
