import { ValidationError, defineModel, f } from 'patchbay';
import { WebhookHttpMethod } from '../choices.js';
import { additionalHeadersProblem } from '../validation/webhook-headers.js';
import { payloadUrlProblem } from '../validation/webhook-url.js';
import { checkWrittenText } from '../validation/written-text.js';

/** Where an event rule sends its events: URL, headers and body are Jinja2 templates over the event's context. */
export const Webhook = defineModel('extras.webhook', {
  path: 'webhooks',
  verboseName: 'webhook',
  fields: {
    name: f.string({ max: 150, unique: true }),
    description: f.string({ max: 200, blank: true }),
    payload_url: f.string({
      max: 500,
      label: 'URL',
      helpText: 'This URL will be called using the HTTP method defined when the webhook is called. Jinja2 template processing is supported with the same context as the request body.',
    }),
    http_method: f.choice(WebhookHttpMethod, { default: 'POST', label: 'HTTP method' }),
    http_content_type: f.string({ max: 100, default: 'application/json', label: 'HTTP content type', helpText: 'The complete list of official content types is available here.' }),
    additional_headers: f.text({
      blank: true,
      helpText: 'User-supplied HTTP headers to be sent with the request in addition to the HTTP content type. Headers should be defined in the format Name: Value. Jinja2 template processing is supported with the same context as the request body (below).',
    }),
    body_template: f.text({
      blank: true,
      helpText: 'Jinja2 template for a custom request body. If blank, a JSON object representing the change will be included. Available context data includes: event, model, timestamp, username, request_id, and data.',
    }),
    secret: f.string({
      max: 255,
      blank: true,
      helpText: "When provided, the request will include a X-Hook-Signature header containing a HMAC hex digest of the payload body using the secret as the key. The secret is not transmitted in the request.",
    }),
    ssl_verification: f.boolean({ default: true, label: 'SSL verification', helpText: 'Enable SSL certificate verification. Disable with caution!' }),
    ca_file_path: f.string({
      max: 4096,
      nullable: true,
      label: 'CA File Path',
      helpText: 'The specific CA certificate file to use for SSL verification. Leave blank to use the system defaults.',
    }),
  },
  brief: ['name', 'description'],
  ordering: ['name'],
  search: ['name', 'description', 'payload_url'],
  features: ['tags', 'customFields', 'changelog'],
  validate: (row, ctx) => {
    checkWrittenText(ctx.values, { payload_url: payloadUrlProblem, additional_headers: additionalHeadersProblem });
    if (!row.ssl_verification && row.ca_file_path) {
      throw ValidationError.of('ca_file_path', 'Do not specify a CA certificate file if SSL verification is disabled.');
    }
  },
});
