-- The built-in templates: the 18 ids Part 2 names, plus customer_invite_html (decision 0182).
-- This file is a Go text/template like every migration, so the two opening braces of
-- each placeholder are written as a template action printing them; the rendered SQL
-- stores the placeholders as the templates show them.
-- +goose Up
INSERT INTO notification_templates (id, name, channel, category, subject, body, html_body, variables, is_system, created_at, updated_at) VALUES
('order_confirmation', 'Order confirmation', 'email', 'transactional', 'Order {{"{{"}} order_number }} confirmed', 'Hi {{"{{"}} customer_name }},

Thank you for your order {{"{{"}} order_number }}. We have received it and will let you know when it ships.

{{"{{"}}#items}}- {{"{{"}} quantity }} x {{"{{"}} title }}: {{"{{"}} total }} {{"{{"}} currency }}
{{"{{"}}/items}}
Subtotal: {{"{{"}} subtotal }} {{"{{"}} currency }}
Shipping: {{"{{"}} shipping }} {{"{{"}} currency }}
Tax: {{"{{"}} tax }} {{"{{"}} currency }}
Total: {{"{{"}} total }} {{"{{"}} currency }}

{{"{{"}} shop_name }}', '', '["customer_name", "order_number", "items", "subtotal", "shipping", "tax", "total", "currency", "shop_name"]', TRUE, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('order_confirmation_html', 'Order confirmation (HTML)', 'email', 'transactional', 'Order {{"{{"}} order_number }} confirmed', 'Hi {{"{{"}} customer_name }},

Thank you for your order {{"{{"}} order_number }}. We have received it and will let you know when it ships.

{{"{{"}}#items}}- {{"{{"}} quantity }} x {{"{{"}} title }}: {{"{{"}} total }} {{"{{"}} currency }}
{{"{{"}}/items}}
Subtotal: {{"{{"}} subtotal }} {{"{{"}} currency }}
Shipping: {{"{{"}} shipping }} {{"{{"}} currency }}
Tax: {{"{{"}} tax }} {{"{{"}} currency }}
Total: {{"{{"}} total }} {{"{{"}} currency }}

{{"{{"}} shop_name }}', '<!DOCTYPE html><html><body style="font-family:Arial,sans-serif;color:#222;max-width:600px;margin:auto"><h1 style="font-size:20px">Thank you for your order</h1><p>Hi {{"{{"}} customer_name }},</p><p>We have received your order <strong>{{"{{"}} order_number }}</strong> and will let you know when it ships.</p><table style="width:100%;border-collapse:collapse"><tr><th align="left">Item</th><th align="right">Qty</th><th align="right">Total</th></tr>{{"{{"}}#items}}<tr><td>{{"{{"}} title }}</td><td align="right">{{"{{"}} quantity }}</td><td align="right">{{"{{"}} total }} {{"{{"}} currency }}</td></tr>{{"{{"}}/items}}</table><p>Subtotal: {{"{{"}} subtotal }} {{"{{"}} currency }}<br>Shipping: {{"{{"}} shipping }} {{"{{"}} currency }}<br>Tax: {{"{{"}} tax }} {{"{{"}} currency }}<br><strong>Total: {{"{{"}} total }} {{"{{"}} currency }}</strong></p><p style="color:#777;font-size:12px">{{"{{"}} shop_name }}</p></body></html>', '["customer_name", "order_number", "items", "subtotal", "shipping", "tax", "total", "currency", "shop_name"]', TRUE, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('order_shipped', 'Order shipped', 'email', 'transactional', 'Your order {{"{{"}} order_number }} has shipped', 'Hi {{"{{"}} customer_name }},

Good news: your order {{"{{"}} order_number }} is on its way with {{"{{"}} carrier }}.
Tracking number: {{"{{"}} tracking_number }}
Track it here: {{"{{"}} tracking_url }}

{{"{{"}} shop_name }}', '', '["customer_name", "order_number", "carrier", "tracking_number", "tracking_url", "shop_name"]', TRUE, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('order_shipped_html', 'Order shipped (HTML)', 'email', 'transactional', 'Your order {{"{{"}} order_number }} has shipped', 'Hi {{"{{"}} customer_name }},

Good news: your order {{"{{"}} order_number }} is on its way with {{"{{"}} carrier }}.
Tracking number: {{"{{"}} tracking_number }}
Track it here: {{"{{"}} tracking_url }}

{{"{{"}} shop_name }}', '<!DOCTYPE html><html><body style="font-family:Arial,sans-serif;color:#222;max-width:600px;margin:auto"><h1 style="font-size:20px">Your order is on its way</h1><p>Hi {{"{{"}} customer_name }},</p><p>Your order <strong>{{"{{"}} order_number }}</strong> has shipped with {{"{{"}} carrier }}.</p><p>Tracking number: <strong>{{"{{"}} tracking_number }}</strong></p><p><a href="{{"{{"}} tracking_url }}">Track your package</a></p><p style="color:#777;font-size:12px">{{"{{"}} shop_name }}</p></body></html>', '["customer_name", "order_number", "carrier", "tracking_number", "tracking_url", "shop_name"]', TRUE, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('order_cancelled_html', 'Order cancelled', 'email', 'transactional', 'Your order {{"{{"}} order_number }} has been cancelled', 'Hi {{"{{"}} customer_name }},

Your order {{"{{"}} order_number }} has been cancelled ({{"{{"}} reason }}). If you paid for it, the {{"{{"}} total }} {{"{{"}} currency }} will be refunded to your original payment method.

{{"{{"}} shop_name }}', '<!DOCTYPE html><html><body style="font-family:Arial,sans-serif;color:#222;max-width:600px;margin:auto"><h1 style="font-size:20px">Your order has been cancelled</h1><p>Hi {{"{{"}} customer_name }},</p><p>Your order <strong>{{"{{"}} order_number }}</strong> has been cancelled ({{"{{"}} reason }}).</p><p>If you paid for it, the {{"{{"}} total }} {{"{{"}} currency }} will be refunded to your original payment method.</p><p style="color:#777;font-size:12px">{{"{{"}} shop_name }}</p></body></html>', '["customer_name", "order_number", "reason", "total", "currency", "shop_name"]', TRUE, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('payment_successful_html', 'Payment received', 'email', 'transactional', 'Payment received for order {{"{{"}} order_number }}', 'Hi {{"{{"}} customer_name }},

We received your payment of {{"{{"}} amount }} {{"{{"}} currency }} ({{"{{"}} payment_method }}) for order {{"{{"}} order_number }}. Thank you!

{{"{{"}} shop_name }}', '<!DOCTYPE html><html><body style="font-family:Arial,sans-serif;color:#222;max-width:600px;margin:auto"><h1 style="font-size:20px">Payment received</h1><p>Hi {{"{{"}} customer_name }},</p><p>We received your payment of <strong>{{"{{"}} amount }} {{"{{"}} currency }}</strong> ({{"{{"}} payment_method }}) for order <strong>{{"{{"}} order_number }}</strong>. Thank you!</p><p style="color:#777;font-size:12px">{{"{{"}} shop_name }}</p></body></html>', '["customer_name", "order_number", "amount", "currency", "payment_method", "shop_name"]', TRUE, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('payment_failed_html', 'Payment failed', 'email', 'transactional', 'Your payment of {{"{{"}} amount }} {{"{{"}} currency }} did not go through', 'Hi {{"{{"}} customer_name }},

Your payment of {{"{{"}} amount }} {{"{{"}} currency }}{{"{{"}}#order_number}} for order {{"{{"}} order_number }}{{"{{"}}/order_number}} did not go through: {{"{{"}} error_message }}.
Please try again with another payment method.

{{"{{"}} shop_name }}', '<!DOCTYPE html><html><body style="font-family:Arial,sans-serif;color:#222;max-width:600px;margin:auto"><h1 style="font-size:20px">Your payment did not go through</h1><p>Hi {{"{{"}} customer_name }},</p><p>Your payment of <strong>{{"{{"}} amount }} {{"{{"}} currency }}</strong>{{"{{"}}#order_number}} for order <strong>{{"{{"}} order_number }}</strong>{{"{{"}}/order_number}} did not go through: {{"{{"}} error_message }}.</p><p>Please try again with another payment method.</p><p style="color:#777;font-size:12px">{{"{{"}} shop_name }}</p></body></html>', '["customer_name", "order_number", "amount", "currency", "error_message", "shop_name"]', TRUE, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('refund_processed_html', 'Refund processed', 'email', 'transactional', 'Your refund for order {{"{{"}} order_number }}', 'Hi {{"{{"}} customer_name }},

We have refunded {{"{{"}} amount }} {{"{{"}} currency }} for order {{"{{"}} order_number }}. Depending on your bank it may take 5 to 10 business days to appear on your statement.

{{"{{"}} shop_name }}', '<!DOCTYPE html><html><body style="font-family:Arial,sans-serif;color:#222;max-width:600px;margin:auto"><h1 style="font-size:20px">Your refund is on its way</h1><p>Hi {{"{{"}} customer_name }},</p><p>We have refunded <strong>{{"{{"}} amount }} {{"{{"}} currency }}</strong> for order <strong>{{"{{"}} order_number }}</strong>.</p><p>Depending on your bank it may take 5 to 10 business days to appear on your statement.</p><p style="color:#777;font-size:12px">{{"{{"}} shop_name }}</p></body></html>', '["customer_name", "order_number", "amount", "currency", "shop_name"]', TRUE, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('subscription_created_html', 'Subscription started', 'email', 'transactional', 'Your {{"{{"}} plan_name }} subscription has started', 'Hi {{"{{"}} customer_name }},

Welcome to {{"{{"}} plan_name }}! You will be billed {{"{{"}} amount }} {{"{{"}} currency }} every {{"{{"}} interval }}. Your next billing date is {{"{{"}} next_billing_date }}.

{{"{{"}} shop_name }}', '<!DOCTYPE html><html><body style="font-family:Arial,sans-serif;color:#222;max-width:600px;margin:auto"><h1 style="font-size:20px">Your subscription has started</h1><p>Hi {{"{{"}} customer_name }},</p><p>Welcome to <strong>{{"{{"}} plan_name }}</strong>! You will be billed {{"{{"}} amount }} {{"{{"}} currency }} every {{"{{"}} interval }}.</p><p>Your next billing date is {{"{{"}} next_billing_date }}.</p><p style="color:#777;font-size:12px">{{"{{"}} shop_name }}</p></body></html>', '["customer_name", "plan_name", "amount", "currency", "interval", "next_billing_date", "shop_name"]', TRUE, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('subscription_renewal_html', 'Subscription renewed', 'email', 'transactional', 'Your {{"{{"}} plan_name }} subscription has been renewed', 'Hi {{"{{"}} customer_name }},

Your {{"{{"}} plan_name }} subscription has been renewed and {{"{{"}} amount }} {{"{{"}} currency }} was charged. Your next billing date is {{"{{"}} next_billing_date }}.

{{"{{"}} shop_name }}', '<!DOCTYPE html><html><body style="font-family:Arial,sans-serif;color:#222;max-width:600px;margin:auto"><h1 style="font-size:20px">Your subscription has been renewed</h1><p>Hi {{"{{"}} customer_name }},</p><p>Your <strong>{{"{{"}} plan_name }}</strong> subscription has been renewed and {{"{{"}} amount }} {{"{{"}} currency }} was charged.</p><p>Your next billing date is {{"{{"}} next_billing_date }}.</p><p style="color:#777;font-size:12px">{{"{{"}} shop_name }}</p></body></html>', '["customer_name", "plan_name", "amount", "currency", "next_billing_date", "shop_name"]', TRUE, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('subscription_cancelled_html', 'Subscription cancelled', 'email', 'transactional', 'Your {{"{{"}} plan_name }} subscription has been cancelled', 'Hi {{"{{"}} customer_name }},

Your {{"{{"}} plan_name }} subscription has been cancelled. You keep access until {{"{{"}} ends_at }}. We are sorry to see you go.

{{"{{"}} shop_name }}', '<!DOCTYPE html><html><body style="font-family:Arial,sans-serif;color:#222;max-width:600px;margin:auto"><h1 style="font-size:20px">Your subscription has been cancelled</h1><p>Hi {{"{{"}} customer_name }},</p><p>Your <strong>{{"{{"}} plan_name }}</strong> subscription has been cancelled. You keep access until {{"{{"}} ends_at }}.</p><p>We are sorry to see you go.</p><p style="color:#777;font-size:12px">{{"{{"}} shop_name }}</p></body></html>', '["customer_name", "plan_name", "ends_at", "shop_name"]', TRUE, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('dunning_first_html', 'Payment problem: first notice', 'email', 'transactional', 'We could not renew your {{"{{"}} plan_name }} subscription', 'Hi {{"{{"}} customer_name }},

We could not charge {{"{{"}} amount }} {{"{{"}} currency }} for your {{"{{"}} plan_name }} subscription. We will try again on {{"{{"}} retry_date }}.
To avoid an interruption, please update your payment method: {{"{{"}} update_payment_url }}

{{"{{"}} shop_name }}', '<!DOCTYPE html><html><body style="font-family:Arial,sans-serif;color:#222;max-width:600px;margin:auto"><h1 style="font-size:20px">We could not renew your subscription</h1><p>Hi {{"{{"}} customer_name }},</p><p>We could not charge <strong>{{"{{"}} amount }} {{"{{"}} currency }}</strong> for your <strong>{{"{{"}} plan_name }}</strong> subscription. We will try again on {{"{{"}} retry_date }}.</p><p><a href="{{"{{"}} update_payment_url }}">Update your payment method</a> to avoid an interruption.</p><p style="color:#777;font-size:12px">{{"{{"}} shop_name }}</p></body></html>', '["customer_name", "plan_name", "amount", "currency", "retry_date", "update_payment_url", "shop_name"]', TRUE, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('dunning_retry_html', 'Payment problem: retry failed', 'email', 'transactional', 'Second attempt: your {{"{{"}} plan_name }} payment failed again', 'Hi {{"{{"}} customer_name }},

Our second attempt to charge {{"{{"}} amount }} {{"{{"}} currency }} for your {{"{{"}} plan_name }} subscription failed. We will try once more on {{"{{"}} retry_date }}.
Please update your payment method: {{"{{"}} update_payment_url }}

{{"{{"}} shop_name }}', '<!DOCTYPE html><html><body style="font-family:Arial,sans-serif;color:#222;max-width:600px;margin:auto"><h1 style="font-size:20px">Your payment failed again</h1><p>Hi {{"{{"}} customer_name }},</p><p>Our second attempt to charge <strong>{{"{{"}} amount }} {{"{{"}} currency }}</strong> for your <strong>{{"{{"}} plan_name }}</strong> subscription failed. We will try once more on {{"{{"}} retry_date }}.</p><p><a href="{{"{{"}} update_payment_url }}">Update your payment method</a></p><p style="color:#777;font-size:12px">{{"{{"}} shop_name }}</p></body></html>', '["customer_name", "plan_name", "amount", "currency", "retry_date", "update_payment_url", "shop_name"]', TRUE, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('dunning_final_html', 'Payment problem: final notice', 'email', 'transactional', 'Final notice: your {{"{{"}} plan_name }} subscription will be suspended', 'Hi {{"{{"}} customer_name }},

This is our final notice: we could not charge {{"{{"}} amount }} {{"{{"}} currency }} for your {{"{{"}} plan_name }} subscription. Unless you update your payment method by {{"{{"}} retry_date }}, the subscription will be suspended.
Update it here: {{"{{"}} update_payment_url }}

{{"{{"}} shop_name }}', '<!DOCTYPE html><html><body style="font-family:Arial,sans-serif;color:#222;max-width:600px;margin:auto"><h1 style="font-size:20px">Final notice</h1><p>Hi {{"{{"}} customer_name }},</p><p>We could not charge <strong>{{"{{"}} amount }} {{"{{"}} currency }}</strong> for your <strong>{{"{{"}} plan_name }}</strong> subscription. Unless you update your payment method by {{"{{"}} retry_date }}, the subscription will be suspended.</p><p><a href="{{"{{"}} update_payment_url }}">Update your payment method</a></p><p style="color:#777;font-size:12px">{{"{{"}} shop_name }}</p></body></html>', '["customer_name", "plan_name", "amount", "currency", "retry_date", "update_payment_url", "shop_name"]', TRUE, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('welcome_html', 'Welcome', 'email', 'transactional', 'Welcome to {{"{{"}} shop_name }}', 'Hi {{"{{"}} customer_name }},

Welcome to {{"{{"}} shop_name }}! Your account is ready. Sign in any time at {{"{{"}} shop_url }} to follow your orders and save your addresses.

{{"{{"}} shop_name }}', '<!DOCTYPE html><html><body style="font-family:Arial,sans-serif;color:#222;max-width:600px;margin:auto"><h1 style="font-size:20px">Welcome to {{"{{"}} shop_name }}</h1><p>Hi {{"{{"}} customer_name }},</p><p>Your account is ready. <a href="{{"{{"}} shop_url }}">Sign in</a> any time to follow your orders and save your addresses.</p><p style="color:#777;font-size:12px">{{"{{"}} shop_name }}</p></body></html>', '["customer_name", "shop_name", "shop_url"]', TRUE, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('password_reset_html', 'Password reset', 'email', 'transactional', 'Reset your {{"{{"}} shop_name }} password', 'Hi {{"{{"}} customer_name }},

Someone asked to reset the password of your account. To choose a new one, open this link (valid until {{"{{"}} expires_at }}):
{{"{{"}} reset_url }}

If it was not you, ignore this message: your password stays the same.

{{"{{"}} shop_name }}', '<!DOCTYPE html><html><body style="font-family:Arial,sans-serif;color:#222;max-width:600px;margin:auto"><h1 style="font-size:20px">Reset your password</h1><p>Hi {{"{{"}} customer_name }},</p><p>Someone asked to reset the password of your account. To choose a new one, use the button below (valid until {{"{{"}} expires_at }}).</p><p><a href="{{"{{"}} reset_url }}">Choose a new password</a></p><p>If it was not you, ignore this message: your password stays the same.</p><p style="color:#777;font-size:12px">{{"{{"}} shop_name }}</p></body></html>', '["customer_name", "reset_url", "expires_at", "shop_name"]', TRUE, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('abandoned_cart_html', 'Abandoned cart', 'email', 'marketing', 'You left something in your cart', 'Hi {{"{{"}} customer_name }},

You left {{"{{"}} item_count }} item(s) worth {{"{{"}} total }} {{"{{"}} currency }} in your cart. They are still waiting for you:
{{"{{"}} cart_url }}

{{"{{"}} shop_name }}', '<!DOCTYPE html><html><body style="font-family:Arial,sans-serif;color:#222;max-width:600px;margin:auto"><h1 style="font-size:20px">You left something in your cart</h1><p>Hi {{"{{"}} customer_name }},</p><p>You left {{"{{"}} item_count }} item(s) worth <strong>{{"{{"}} total }} {{"{{"}} currency }}</strong> in your cart. They are still waiting for you.</p><p><a href="{{"{{"}} cart_url }}">Return to your cart</a></p><p style="color:#777;font-size:12px">{{"{{"}} shop_name }}</p></body></html>', '["customer_name", "item_count", "total", "currency", "cart_url", "shop_name"]', TRUE, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('low_stock_alert', 'Low stock alert (staff)', 'email', 'system', 'Low stock: {{"{{"}} product_title }} ({{"{{"}} quantity }} left)', 'Stock of {{"{{"}} product_title }} (SKU {{"{{"}} sku }}, product {{"{{"}} product_id }}) is down to {{"{{"}} quantity }}, at or below its threshold of {{"{{"}} threshold }}.
Consider reordering.

{{"{{"}} shop_name }}', '', '["product_title", "sku", "quantity", "threshold", "product_id", "shop_name"]', TRUE, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('customer_invite_html', 'Customer account invite', 'email', 'transactional', 'You are invited to create your {{"{{"}} shop_name }} account', 'Hi {{"{{"}} customer_name }},

{{"{{"}} shop_name }} has created an account for you. Activate it and choose your password here (valid until {{"{{"}} expires_at }}):
{{"{{"}} activation_url }}

{{"{{"}} shop_name }}', '<!DOCTYPE html><html><body style="font-family:Arial,sans-serif;color:#222;max-width:600px;margin:auto"><h1 style="font-size:20px">Activate your account</h1><p>Hi {{"{{"}} customer_name }},</p><p>{{"{{"}} shop_name }} has created an account for you. Activate it and choose your password (valid until {{"{{"}} expires_at }}).</p><p><a href="{{"{{"}} activation_url }}">Activate your account</a></p><p style="color:#777;font-size:12px">{{"{{"}} shop_name }}</p></body></html>', '["customer_name", "activation_url", "expires_at", "shop_name"]', TRUE, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00');

-- +goose Down
DELETE FROM notification_templates WHERE is_system;
