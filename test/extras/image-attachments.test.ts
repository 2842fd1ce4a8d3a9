import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from '../helpers/png.js';
import { startServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
const ATTACHMENTS = '/api/extras/image-attachments/';
const mediaRoot = mkdtempSync(join(tmpdir(), 'patchbay-media-'));

async function upload(fields: Record<string, string>, file?: { data: Buffer; name: string; type: string }, token = t.admin.token) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (file) form.set('image', new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);
  const res = await fetch(`${t.base}${ATTACHMENTS}`, { method: 'POST', body: form, headers: { Authorization: `Token ${token}`, Accept: 'application/json' } });
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  t = await startServer({ settings: { MEDIA_ROOT: mediaRoot, MAX_BODY_SIZE: 64 * 1024 } });
});
afterAll(async () => {
  await t?.close();
});

describe('image attachments', () => {
  it('round-trip a real PNG: stored under MEDIA_ROOT, sized from the file, served at its URL', async () => {
    const { body: tenant } = await t.post('/api/tenancy/tenants/', { name: 'Pictured', slug: 'pictured' });
    const image = png(37, 21);
    const res = await upload({ object_type: 'tenancy.tenant', object_id: String(tenant.id), name: 'Rack photo' }, { data: image, name: 'photo.png', type: 'image/png' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect((await t.get(`/api/extras/image-attachments/${res.body.id}/?fields=image_width,image_height`)).body).toEqual({ image_width: 37, image_height: 21 });
    expect(res.body).toMatchObject({
      object_type: 'tenancy.tenant', object_id: tenant.id, parent: { id: tenant.id, name: 'Pictured' },
      name: 'Rack photo', image_width: 37, image_height: 21,
      image: expect.stringMatching(new RegExp(`^${t.base}/media/image-attachments/[0-9a-f-]{36}\\.png$`)),
    });
    const served = await fetch(res.body.image, { headers: { Authorization: `Token ${t.admin.token}` } });
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(image)).toBe(true);
    expect((await fetch(res.body.image)).status).toBe(403);
    const missing = await fetch(`${t.base}/media/image-attachments/none.png`, { headers: { Authorization: `Token ${t.admin.token}` } });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ detail: 'Not found.' });
    const file = join(mediaRoot, new URL(res.body.image).pathname.replace('/media/', ''));
    expect(existsSync(file)).toBe(true);

    // Deleting the attachment deletes the file.
    expect((await t.request('DELETE', `${ATTACHMENTS}${res.body.id}/`)).status).toBe(204);
    expect(existsSync(file)).toBe(false);

    // So does deleting the object it belongs to.
    const again = await upload({ object_type: 'tenancy.tenant', object_id: String(tenant.id) }, { data: image, name: 'p.png', type: 'image/png' });
    const second = join(mediaRoot, new URL(again.body.image).pathname.replace('/media/', ''));
    expect(existsSync(second)).toBe(true);
    await t.request('DELETE', `/api/tenancy/tenants/${tenant.id}/`);
    expect(existsSync(second)).toBe(false);
    expect((await t.get(ATTACHMENTS)).body.count).toBe(0);
  });

  it('refuse non-images, oversized files, bad objects and JSON, leaving no file behind', async () => {
    const { body: tenant } = await t.post('/api/tenancy/tenants/', { name: 'Target', slug: 'target' });
    const target = { object_type: 'tenancy.tenant', object_id: String(tenant.id) };
    expect((await upload(target, { data: Buffer.from('not an image'), name: 'x.png', type: 'image/png' })).body).toEqual({
      image: ['Upload a valid image. The file you uploaded was either not an image or a corrupted image.'],
    });
    const big = await upload(target, { data: png(300, 300, true), name: 'big.png', type: 'image/png' });
    expect(big.status).toBe(400);
    expect(big.body).toEqual({ image: ['The file is too large: at most 65536 bytes.'] });
    expect((await upload(target)).body).toEqual({ image: ['No file was submitted.'] });
    const wrongObject = await upload({ object_type: 'tenancy.tenant', object_id: '99999' }, { data: png(2, 2), name: 'p.png', type: 'image/png' });
    expect(wrongObject.body).toEqual({ object_id: ['Related object not found using the provided value: 99999.'] });
    const json = await t.post(ATTACHMENTS, { ...target, image: 'image-attachments/../../secret' });
    expect(json.body).toEqual({ image: ['Upload a valid image with multipart/form-data.'] });
    const { readdirSync } = await import('node:fs');
    expect(existsSync(join(mediaRoot, 'image-attachments')) ? readdirSync(join(mediaRoot, 'image-attachments')) : []).toEqual([]);
  });

  it('refuse to attach to an object the user cannot view, as if it did not exist, and hide it when read', async () => {
    const { body: tenants } = await t.post('/api/tenancy/tenants/', [{ name: 'Seen', slug: 'seen' }, { name: 'Hidden', slug: 'hidden' }]);
    const user = await t.createUser('photographer');
    await t.post('/api/users/permissions/', [
      { name: 'seen tenant', object_types: ['tenancy.tenant'], actions: ['view'], constraints: { slug: 'seen' }, users: [user.id] },
      { name: 'attach', object_types: ['extras.imageattachment'], actions: ['view', 'add'], users: [user.id] },
    ]);
    const image = { data: png(3, 3), name: 'p.png', type: 'image/png' };
    const hidden = await upload({ object_type: 'tenancy.tenant', object_id: String(tenants[1].id) }, image, user.token);
    expect(hidden.body).toEqual({ object_id: [`Related object not found using the provided value: ${tenants[1].id}.`] });
    expect((await upload({ object_type: 'tenancy.tenant', object_id: String(tenants[0].id) }, image, user.token)).status).toBe(201);
    const mine = await upload({ object_type: 'tenancy.tenant', object_id: String(tenants[1].id) }, image);
    const read = (await t.get(`${ATTACHMENTS}${mine.body.id}/`, { token: user.token })).body;
    expect(read).toMatchObject({ object_type: 'tenancy.tenant', object_id: tenants[1].id, parent: null });
  });
});
