package http

import (
	"time"

	"github.com/gocommerce/commerce/modules/notifications/api"
	"github.com/gocommerce/commerce/modules/notifications/app"
	"github.com/gocommerce/commerce/modules/notifications/domain"
)

type createRequest struct {
	Channel           string         `json:"channel"`
	Recipient         string         `json:"recipient"`
	Subject           string         `json:"subject"`
	Body              string         `json:"body"`
	HTMLBody          string         `json:"html_body"`
	Priority          string         `json:"priority"`
	TemplateID        string         `json:"template_id"`
	TemplateVariables map[string]any `json:"template_variables"`
	Metadata          map[string]any `json:"metadata"`
	ScheduledAt       *time.Time     `json:"scheduled_at"`
}

func (r createRequest) input() app.SendInput {
	return app.SendInput{Channel: r.Channel, Recipient: r.Recipient, Subject: r.Subject, Body: r.Body, HTMLBody: r.HTMLBody,
		Priority: r.Priority, TemplateID: r.TemplateID, TemplateVariables: r.TemplateVariables, Metadata: r.Metadata,
		ScheduledAt: r.ScheduledAt}
}

type statusResponse struct {
	ID           string `json:"id"`
	Status       string `json:"status"`
	AttemptCount int    `json:"attempt_count"`
	Message      string `json:"message"`
}

type cancelResponse struct {
	ID      string `json:"id"`
	Status  string `json:"status"`
	Message string `json:"message"`
}

type templateRequest struct {
	ID        *string   `json:"id"`
	Name      *string   `json:"name"`
	Channel   *string   `json:"channel"`
	Category  *string   `json:"category"`
	Subject   *string   `json:"subject"`
	Body      *string   `json:"body"`
	HTMLBody  *string   `json:"html_body"`
	Variables *[]string `json:"variables"`
}

func (r templateRequest) input() domain.TemplateInput {
	return domain.TemplateInput{ID: r.ID, Name: r.Name, Channel: r.Channel, Category: r.Category, Subject: r.Subject, Body: r.Body,
		HTMLBody: r.HTMLBody, Variables: r.Variables}
}

// templateSummary is a template in the list (no bodies; has_html).
type templateSummary struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Channel   string    `json:"channel"`
	Category  string    `json:"category"`
	Subject   string    `json:"subject"`
	Variables []string  `json:"variables"`
	HasHTML   bool      `json:"has_html"`
	IsSystem  bool      `json:"is_system"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

func toSummary(t api.Template) templateSummary {
	return templateSummary{ID: t.ID, Name: t.Name, Channel: t.Channel, Category: t.Category, Subject: t.Subject, Variables: t.Variables,
		HasHTML: t.HasHTML, IsSystem: t.IsSystem, CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt}
}

type templateCreated struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Channel   string    `json:"channel"`
	Subject   string    `json:"subject"`
	Variables []string  `json:"variables"`
	CreatedAt time.Time `json:"created_at"`
}

type deleteResponse struct {
	Deleted bool   `json:"deleted"`
	ID      string `json:"id"`
}

type previewRequest struct {
	Variables map[string]any `json:"variables"`
}

type previewResponse struct {
	Subject          string    `json:"subject"`
	Body             string    `json:"body"`
	HTMLBody         string    `json:"html_body"`
	MissingVariables []string  `json:"missing_variables"`
	RenderedAt       time.Time `json:"rendered_at"`
}

// bulkRecipient is one recipient: email (Part 2's member), or recipient for the other
// channels (a phone number, device token, URL or customer id).
type bulkRecipient struct {
	Email     string         `json:"email"`
	Recipient string         `json:"recipient"`
	Variables map[string]any `json:"variables"`
}

type bulkRequest struct {
	TemplateID string          `json:"template_id"`
	Channel    string          `json:"channel"`
	Recipients []bulkRecipient `json:"recipients"`
	Priority   string          `json:"priority"`
	Metadata   map[string]any  `json:"metadata"`
}

type bulkItem struct {
	ID        *string `json:"id"`
	Recipient string  `json:"recipient"`
	Status    string  `json:"status"`
	Error     *string `json:"error,omitempty"`
}

type bulkResponse struct {
	BatchID       string     `json:"batch_id"`
	Total         int        `json:"total"`
	Queued        int        `json:"queued"`
	Failed        int        `json:"failed"`
	Notifications []bulkItem `json:"notifications"`
}

type counts struct {
	Sent      int64 `json:"sent"`
	Delivered int64 `json:"delivered"`
	Failed    int64 `json:"failed"`
	Bounced   int64 `json:"bounced"`
}

type overall struct {
	counts
	DeliveryRate float64 `json:"delivery_rate"`
	FailureRate  float64 `json:"failure_rate"`
}

type period struct {
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
}

type statsResponse struct {
	Period    period            `json:"period"`
	Overall   overall           `json:"overall"`
	ByChannel map[string]counts `json:"by_channel"`
}

type webhookRequest struct {
	ID    string `json:"id"`
	Topic string `json:"topic"`
	Data  struct {
		NotificationID    string `json:"notification_id"`
		ProviderMessageID string `json:"provider_message_id"`
		Error             string `json:"error"`
	} `json:"data"`
}

type receivedResponse struct {
	Received bool `json:"received"`
}
