import type { RouteOperation, SchemaObject } from 'patchbay';

const object: SchemaObject = { type: 'object', additionalProperties: true };
const page = { name: 'limit', in: 'query' as const, schema: { type: 'integer' as const }, description: 'How many to list.' };

/** A GET listing what is free and a POST taking it, for one kind of allocation. */
function allocation(what: string, created: string): Record<'get' | 'post', RouteOperation> {
  return {
    get: { summary: `The free ${what}, first first`, parameters: [page], responses: { '200': { description: `Free ${what}`, schema: { type: 'array', items: object } } } },
    post: {
      summary: `Take the next free ${what}: one object or a list, each with the fields to create it with`,
      requestBody: { oneOf: [object, { type: 'array', items: object }] },
      responses: {
        '201': { description: `The created ${created}`, schema: { oneOf: [object, { type: 'array', items: object }] } },
        '409': { description: `Not enough free ${what}`, schema: { $ref: '#/components/schemas/Error' } },
      },
    },
  };
}

/** What ipam's allocation routes are, for the OpenAPI document. */
export const ipamOperations: Record<string, RouteOperation> = Object.fromEntries(
  ([
    ['/prefixes/{id}/available-ips/', 'addresses', 'IP addresses'],
    ['/prefixes/{id}/available-prefixes/', 'prefixes', 'prefixes'],
    ['/ip-ranges/{id}/available-ips/', 'addresses', 'IP addresses'],
    ['/asn-ranges/{id}/available-asns/', 'AS numbers', 'ASNs'],
    ['/vlan-groups/{id}/available-vlans/', 'VLAN IDs', 'VLANs'],
  ] as const).flatMap(([path, what, created]) => {
    const { get, post } = allocation(what, created);
    return [[`GET ${path}`, get], [`POST ${path}`, post]];
  }),
);
