// Calls a client generated from /api/schema/ makes. The OpenAPI test writes the generated `schema.d.ts` beside this
// file, type-checks the two strictly (each `@ts-expect-error` must be an error), then runs `calls` on a live server.
import type { Client } from 'openapi-fetch';
import type { paths } from './schema.js';

export interface CallResults {
  deviceNames: string[];
  tenantId: number;
  tenantName: string;
  description: string;
  siteFacility: string;
}

export async function calls(client: Client<paths>): Promise<CallResults> {
  // A list with filters and their lookups, typed by the document (status is one of the choices).
  const devices = await client.GET('/api/dcim/devices/', { params: { query: { status: ['active', 'planned'], name__ic: ['dev'], limit: 50 } } });
  const deviceNames = (devices.data?.results ?? []).map((device) => device.name ?? '');

  const created = await client.POST('/api/tenancy/tenants/', { body: { name: 'Typed Client', slug: 'typed-client' } });
  if (!created.data || Array.isArray(created.data)) throw new Error(`one tenant created, not ${JSON.stringify(created.error)}`);
  const tenantId: number = created.data.id;

  const one = await client.GET('/api/tenancy/tenants/{id}/', { params: { path: { id: tenantId } } });
  const changed = await client.PATCH('/api/tenancy/tenants/{id}/', { params: { path: { id: tenantId } }, body: { description: 'Written by a generated client' } });

  // A related object written as attributes, read back nested.
  const site = await client.POST('/api/dcim/sites/', { body: { name: 'Typed Site', slug: 'typed-site', facility: 'Hall 2', status: 'active', tenant: { slug: 'typed-client' } } });
  if (!site.data || Array.isArray(site.data)) throw new Error(`one site created, not ${JSON.stringify(site.error)}`);
  const tenantOfSite: string | undefined = site.data.tenant?.name;

  return {
    deviceNames,
    tenantId,
    tenantName: `${one.data?.name}/${tenantOfSite}`,
    description: changed.data?.description ?? '',
    siteFacility: site.data.facility,
  };
}

/** Calls the document does not allow: type-checked, never run. */
export async function refused(client: Client<paths>): Promise<void> {
  // @ts-expect-error -- not a filter of the device list
  await client.GET('/api/dcim/devices/', { params: { query: { no_such_filter: ['x'] } } });
  // @ts-expect-error -- not one of the status choices
  await client.GET('/api/dcim/devices/', { params: { query: { status: ['broken'] } } });
  // @ts-expect-error -- a slug is a string
  await client.POST('/api/tenancy/tenants/', { body: { name: 'x', slug: 5 } });
  // @ts-expect-error -- a tenant needs its name
  await client.POST('/api/tenancy/tenants/', { body: { slug: 'no-name' } });
  // @ts-expect-error -- a path the server does not serve
  await client.GET('/api/dcim/no-such-things/');
  const tenant = await client.GET('/api/tenancy/tenants/{id}/', { params: { path: { id: 1 } } });
  // @ts-expect-error -- read-only
  if (tenant.data) tenant.data.id = 2;
}
