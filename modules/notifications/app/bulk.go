package app

import (
	"context"
	"fmt"
	"strings"

	"github.com/gocommerce/commerce/modules/notifications/domain"
)

// BulkRecipient is one recipient of a bulk send.
type BulkRecipient struct {
	Email     string
	Variables map[string]any
}

// BulkInput is POST /notifications/bulk.
type BulkInput struct {
	TemplateID, Channel, Priority string
	Recipients                    []BulkRecipient
	Metadata                      map[string]any
}

// BulkItem is one recipient's outcome.
type BulkItem struct {
	ID        *string
	Recipient string
	Status    string
	Error     string
}

// BulkResult is the answer of a bulk send.
type BulkResult struct {
	BatchID               string
	Total, Queued, Failed int
	Notifications         []BulkItem
}

// Bulk renders the template for every recipient, stores the notifications of the
// good ones in one transaction (one INSERT per 500) and queues one batch task: the
// request returns before any send. A recipient that cannot be rendered or addressed
// is reported failed and not stored.
func (s *Service) Bulk(ctx context.Context, in BulkInput) (BulkResult, error) {
	bad := domain.Problems{}
	if in.TemplateID == "" {
		bad["template_id"] = "is required"
	}
	if in.Channel == "" {
		bad["channel"] = "is required"
	} else if !domain.Valid(domain.Channels, in.Channel) {
		bad["channel"] = "must be one of: " + strings.Join(domain.Channels, ", ")
	}
	switch {
	case len(in.Recipients) == 0:
		bad["recipients"] = "must have at least one recipient"
	case len(in.Recipients) > domain.MaxRecipients:
		return BulkResult{}, domain.ErrTooManyRecipients.WithField("recipients", fmt.Sprintf("must have at most %d recipients", domain.MaxRecipients))
	}
	if err := bad.Err(); err != nil {
		return BulkResult{}, err
	}
	tpl, err := s.stores.Templates.Get(ctx, in.TemplateID)
	if err != nil {
		return BulkResult{}, err
	}
	if tpl.Channel != in.Channel {
		return BulkResult{}, domain.Problems{"template_id": "is a " + tpl.Channel + " template"}.Err()
	}
	compiled, err := domain.Compile(tpl.Subject, tpl.Body, tpl.HTMLBody)
	if err != nil {
		return BulkResult{}, err
	}
	batchID := s.newID()
	res := BulkResult{BatchID: batchID, Total: len(in.Recipients), Notifications: make([]BulkItem, 0, len(in.Recipients))}
	ns := make([]*domain.Notification, 0, len(in.Recipients))
	for _, r := range in.Recipients {
		meta := map[string]any{"batch_id": batchID}
		for k, v := range in.Metadata {
			meta[k] = v
		}
		n, err := s.buildWith(ctx, SendInput{Channel: in.Channel, Recipient: r.Email, Priority: in.Priority, TemplateID: tpl.ID,
			TemplateVariables: r.Variables, Metadata: meta}, tpl, compiled)
		if err != nil {
			res.Failed++
			res.Notifications = append(res.Notifications, BulkItem{Recipient: r.Email, Status: domain.StatusFailed, Error: problemText(err)})
			continue
		}
		n.BatchID = batchID
		ns = append(ns, n)
		id := n.ID
		res.Queued++
		res.Notifications = append(res.Notifications, BulkItem{ID: &id, Recipient: n.Recipient, Status: n.Status})
	}
	if len(ns) == 0 {
		return res, nil
	}
	err = s.tx.InTx(ctx, func(ctx context.Context) error {
		if err := s.stores.Notifications.Create(ctx, ns...); err != nil {
			return err
		}
		s.tx.AfterCommit(ctx, func() { s.enqueueNow(TaskSendBatch, map[string]string{"batch_id": batchID}, 0) })
		return nil
	})
	return res, err
}

// problemText is the message of a recipient's validation error.
func problemText(err error) string {
	var parts []string
	if p, ok := asFields(err); ok {
		for _, k := range []string{"recipient", "subject", "body", "priority", "template_id"} {
			if v, ok := p[k]; ok {
				parts = append(parts, k+" "+v)
			}
		}
	}
	if len(parts) == 0 {
		return err.Error()
	}
	return strings.Join(parts, "; ")
}
