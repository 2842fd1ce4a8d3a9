import type { RouteOperation, SchemaObject } from 'patchbay';

const object: SchemaObject = { type: 'object', additionalProperties: true };
const query = (name: string, schema: SchemaObject, description: string) => ({ name, in: 'query' as const, schema, description });

/** A trace: `[near ends, cable, far ends]` per segment (NetBox's PathEndpoint trace). */
const TRACE: RouteOperation = {
  summary: 'The cable path from this endpoint, segment by segment',
  description: 'Each segment is `[near ends, cable, far ends]`: brief forms of the objects, and the cable (plain choice values) or null.',
  responses: {
    '200': {
      description: 'The segments, until the path ends or splits',
      schema: { type: 'array', items: { type: 'array', items: { oneOf: [{ type: 'array', items: object }, { ...object, nullable: true }] } } },
    },
  },
};

/** Every path through a pass-through port or circuit termination. */
export const PATHS: RouteOperation = {
  summary: 'Every cable path through this object',
  responses: {
    '200': {
      description: 'The paths',
      schema: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            id: { type: 'integer' }, path: { type: 'array', items: { type: 'array', items: object } },
            is_active: { type: 'boolean' }, is_complete: { type: 'boolean' }, is_split: { type: 'boolean' },
          },
          required: ['id', 'path', 'is_active', 'is_complete', 'is_split'],
        },
      },
    },
  },
};

/** What dcim's extra routes are, for the OpenAPI document. */
export const dcimOperations: Record<string, RouteOperation> = {
  'GET /racks/{id}/elevation/': {
    summary: 'The units of one face of the rack, with the devices in them; or a drawing of it',
    parameters: [
      query('face', { type: 'string', enum: ['front', 'rear'] }, 'Which face (front by default).'),
      query('render', { type: 'string', enum: ['json', 'svg'] }, '`svg` answers an image/svg+xml drawing.'),
      query('exclude', { type: 'integer' }, 'A device to leave out.'),
      query('expand_devices', { type: 'boolean' }, 'One row per unit a device occupies (default true).'),
      query('q', { type: 'string' }, 'Units whose name holds this text.'),
      query('unit_width', { type: 'integer' }, 'Drawing: unit width in pixels.'),
      query('unit_height', { type: 'integer' }, 'Drawing: unit height in pixels.'),
      query('legend_width', { type: 'integer' }, 'Drawing: legend width in pixels.'),
      query('margin_width', { type: 'integer' }, 'Drawing: margin in pixels.'),
      query('limit', { type: 'integer' }, 'Units per page.'),
      query('offset', { type: 'integer' }, 'The first unit of the page.'),
    ],
    responses: { '200': { description: 'A page of units', schema: object } },
  },
  ...Object.fromEntries(['console-ports', 'console-server-ports', 'power-ports', 'power-outlets', 'interfaces', 'power-feeds'].map((p) => [`GET /${p}/{id}/trace/`, TRACE])),
  'GET /front-ports/{id}/paths/': PATHS,
  'GET /rear-ports/{id}/paths/': PATHS,
  'GET /connected-device/': {
    summary: 'The device at the far end of a named device\'s interface (for LLDP-driven automation)',
    parameters: [
      { ...query('peer_device', { type: 'string' }, 'The name of the device at this end.'), required: true },
      { ...query('peer_interface', { type: 'string' }, 'The name of its interface.'), required: true },
    ],
    responses: { '200': { description: 'The device at the far end', schema: { $ref: '#/components/schemas/Device' } } },
  },
};
