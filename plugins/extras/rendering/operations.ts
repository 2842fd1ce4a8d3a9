import type { RouteOperation } from 'patchbay';

/** A render: the context in, the configuration out as JSON or as text. */
export function renderOperation(summary: string, description: string): RouteOperation {
  return {
    summary,
    description,
    requestBody: { type: 'object', additionalProperties: true },
    responses: {
      '200': {
        description: 'The rendered configuration: `{configtemplate, content}`, or the text itself with `Accept: text/plain`',
        schema: {
          type: 'object',
          properties: { configtemplate: { type: 'object', additionalProperties: true }, content: { type: 'string' } },
          required: ['configtemplate', 'content'],
        },
      },
      '400': { description: 'No template found, or the template failed (the message names the line)', schema: { type: 'object', additionalProperties: true } },
    },
  };
}

/** `render-config` of a device or VM. */
export const RENDER_CONFIG = renderOperation(
  'Render the configuration of this object',
  'Its config template (its own, else its role’s, else its platform’s) rendered with its config context, updated by the body, and the object itself.',
);
