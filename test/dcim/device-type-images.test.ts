import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from '../helpers/png.js';
import { startServer, type Body, type TestServer } from '../helpers/server.js';

let t: TestServer;
const TYPES = '/api/dcim/device-types/';
const mediaRoot = mkdtempSync(join(tmpdir(), 'patchbay-media-'));
let vendor: Body;

/** A device type write as multipart/form-data, as NetBox clients upload images. */
async function send(method: string, path: string, fields: Record<string, string>, files: Record<string, Buffer> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  for (const [k, data] of Object.entries(files)) form.set(k, new Blob([new Uint8Array(data)], { type: 'image/png' }), `${k}.png`);
  const res = await fetch(`${t.base}${path}`, { method, body: form, headers: { Authorization: `Token ${t.admin.token}`, Accept: 'application/json' } });
  return { status: res.status, body: await res.json() };
}
const fileOf = (url: string) => join(mediaRoot, new URL(url).pathname.replace('/media/', ''));
const stored = () => (existsSync(join(mediaRoot, 'devicetype-images')) ? readdirSync(join(mediaRoot, 'devicetype-images')) : []);

beforeAll(async () => {
  t = await startServer({ settings: { MEDIA_ROOT: mediaRoot, MAX_BODY_SIZE: 64 * 1024 } });
  ({ body: vendor } = await t.post('/api/dcim/manufacturers/', { name: 'Cisco', slug: 'cisco' }));
});
afterAll(async () => {
  await t?.close();
});

describe('device type images', () => {
  it('upload with the type, replace, clear and delete, the files following', async () => {
    const made = await send('POST', TYPES, { manufacturer: String(vendor.id), model: 'C9300', slug: 'c9300', u_height: '1' }, { front_image: png(40, 10) });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ model: 'C9300', rear_image: null, front_image: expect.stringMatching(new RegExp(`^${t.base}/media/devicetype-images/[0-9a-f-]{36}\\.png$`)) });
    const front = fileOf(made.body.front_image);
    expect(existsSync(front)).toBe(true);
    const served = await fetch(made.body.front_image, { headers: { Authorization: `Token ${t.admin.token}` } });
    expect(Buffer.from(await served.arrayBuffer()).equals(png(40, 10))).toBe(true);

    const id = made.body.id as number;
    expect((await t.get(`${TYPES}?has_front_image=true`)).body.results.map((r: Body) => r.id)).toEqual([id]);
    expect((await t.get(`${TYPES}?has_rear_image=true`)).body.count).toBe(0);

    // A new front image replaces the file; the rear one is added.
    const patched = await send('PATCH', `${TYPES}${id}/`, {}, { front_image: png(8, 8), rear_image: png(8, 4) });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(existsSync(front)).toBe(false);
    expect(existsSync(fileOf(patched.body.front_image))).toBe(true);
    expect(stored()).toHaveLength(2);

    // JSON clears it (null), but cannot name a file.
    expect((await t.request('PATCH', `${TYPES}${id}/`, { body: { rear_image: 'devicetype-images/../../secret.png' } })).body).toEqual({
      rear_image: ['Upload a valid image with multipart/form-data.'],
    });
    const cleared = await t.request('PATCH', `${TYPES}${id}/`, { body: { rear_image: null } });
    expect(cleared.body.rear_image).toBeNull();
    expect(existsSync(fileOf(patched.body.rear_image))).toBe(false);

    // The change log records the stored path.
    const changes = (await t.get(`/api/core/object-changes/?changed_object_type=dcim.devicetype&changed_object_id=${id}`)).body.results as Body[];
    expect(changes.find((c) => c.action.value === 'create')!.postchange_data.front_image).toMatch(/^devicetype-images\/[0-9a-f-]{36}\.png$/);

    expect((await t.request('DELETE', `${TYPES}${id}/`)).status).toBe(204);
    expect(stored()).toEqual([]);
  });

  it('refuse a bad image, an unexpected file or a failed write, leaving no file behind', async () => {
    const fields = { manufacturer: String(vendor.id), model: 'C9500', slug: 'c9500' };
    expect((await send('POST', TYPES, fields, { front_image: Buffer.from('not an image') })).body).toEqual({
      front_image: ['Upload a valid image. The file you uploaded was either not an image or a corrupted image.'],
    });
    expect((await send('POST', TYPES, fields, { front_image: png(300, 300, true) })).body).toEqual({ front_image: ['The file is too large: at most 65536 bytes.'] });
    expect((await send('POST', TYPES, fields, { comments: png(2, 2) })).body).toEqual({ comments: ['Unexpected file.'] });
    // The image is fine but the type is not: nothing is kept.
    expect((await send('POST', TYPES, { ...fields, u_height: '0.3' }, { front_image: png(2, 2) })).body).toEqual({
      u_height: ['U height must be in increments of 0.5 rack units.'],
    });
    expect((await send('POST', TYPES, { ...fields, manufacturer: '99999' }, { front_image: png(2, 2) })).status).toBe(400);
    expect(stored()).toEqual([]);
    expect((await t.get(`${TYPES}?model=C9500`)).body.count).toBe(0);
    await t.get(`${TYPES}?has_front_image=maybe`).then((r) => expect(r.body).toEqual({ has_front_image: [expect.any(String)] }));
  });
});
