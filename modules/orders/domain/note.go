package domain

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gocommerce/commerce/platform/apperr"
)

// Note is a staff note on an order.
type Note struct {
	ID             string
	OrderID        string
	Body           string
	Author         string
	NotifyCustomer bool
	CreatedAt      time.Time
}

// NewNote checks and builds a note: a body of 1..5000 characters, an author of at most
// 255 (defaultAuthor when empty).
func NewNote(id, orderID, body, author, defaultAuthor string, notify bool, now time.Time) (*Note, error) {
	fields := map[string]string{}
	body = strings.TrimSpace(body)
	if body == "" {
		fields["body"] = "is required"
	} else if utf8.RuneCountInString(body) > MaxNote {
		fields["body"] = "must be at most 5000 characters"
	}
	author = strings.TrimSpace(author)
	if author == "" {
		author = defaultAuthor
	}
	if utf8.RuneCountInString(author) > MaxText {
		fields["author"] = "must be at most 255 characters"
	}
	if len(fields) > 0 {
		return nil, apperr.Validation(fields)
	}
	return &Note{ID: id, OrderID: orderID, Body: body, Author: author, NotifyCustomer: notify, CreatedAt: now}, nil
}
