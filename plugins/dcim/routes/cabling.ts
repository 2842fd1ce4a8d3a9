import type { RequestHandler } from 'express';
import { HttpError, and, cmp, detailId, detailObject, notFound, type Alongside, type DataAccess, type Json, type Model, type PluginContext, type Row } from 'patchbay';
import { idsByModel, nodeOf, parseNode, type PathNode } from '../cabling/nodes.js';
import { bridgedPathFrom, destinations, pathFrom, pathsThrough, type StoredPath } from '../cabling/stored-paths.js';

/** Rows of one model read for their brief forms: only the columns those render. */
interface Listed {
  key: string;
  model: Model;
  rows: Row[];
}

/** The objects of `nodes` the reader may view, one list per model (the ports of every kind in one statement). */
async function listed(nodes: PathNode[], reader: DataAccess, ctx: PluginContext): Promise<Listed[]> {
  const wanted: { key: string; model: Model; ids: number[] }[] = [];
  for (const [key, ids] of idsByModel(new Set(nodes))) {
    const model = ctx.registry.find(key);
    if (model && (await reader.can(model, 'view'))) wanted.push({ key, model, ids });
  }
  const lists = await reader.listEach(wanted.map(({ model, ids }) => ({ model, query: { ids, ordering: ['id'], renderedAs: 'brief' } })));
  return wanted.map(({ key, model }, k) => ({ key, model, rows: lists[k] }));
}

const TRACED_CABLE = new Set(['id', 'url', 'display_url', 'type', 'status', 'label', 'color', 'length', 'length_unit', 'description']);
const PLAIN_CHOICES = ['type', 'status', 'length_unit'];

/**
 * The brief form of every object listed, by node, and the cables as a trace shows them (NetBox's
 * TracedCableSerializer, with plain choice values), rendered side by side: what the objects nest (the ports' devices)
 * loads once for all models, and the cables they nest render from the cables listed.
 */
async function rendered(objects: Listed[], cables: Alongside | undefined, reader: DataAccess) {
  const alongside = cables ? [cables] : [];
  const [forms, traced] = await Promise.all([
    Promise.all(objects.map(async ({ key, model, rows }) => ({ key, objects: await reader.render(model, rows, { mode: 'brief', alongside }) }))),
    cables ? reader.render(cables.model, cables.rows, { selection: { only: TRACED_CABLE } }) : [],
  ]);
  // Choices as their plain values, from the rows.
  const plain = (row: Row) => Object.fromEntries(PLAIN_CHOICES.map((key) => [key, (row[key] ?? null) as Json]));
  return {
    objects: new Map(forms.flatMap(({ key, objects: list }) => list.map((object) => [nodeOf(key, object.id as number), object] as const))),
    cables: new Map((cables?.rows ?? []).map((row, n) => [row.id as number, { ...traced[n], ...plain(row) }])),
  };
}

/**
 * The hops of an endpoint's path in threes (near ends, cable, far ends), continued through a bridged interface at a
 * single far end, as NetBox's PathEndpoint.trace: a path ending at an open port is padded, one ending at a site or
 * provider network gets an empty cable.
 */
async function hopsFrom(ctx: PluginContext, origin: PathNode): Promise<PathNode[][]> {
  const hops: PathNode[][] = [];
  const seen = new Set<PathNode>();
  for (let at: PathNode | undefined = origin; at && !seen.has(at); ) {
    seen.add(at);
    const path = await bridgedPathFrom(ctx.db, at);
    if (!path) break;
    hops.push(...path.path);
    if (hops.length % 3 === 1) hops.push([], []);
    else if (hops.length % 3 === 2) hops.splice(hops.length - 1, 0, []);
    at = path.bridge === null ? undefined : nodeOf('dcim.interface', path.bridge);
  }
  return hops;
}

/**
 * `GET …/<id>/trace/` of a path endpoint: `[near ends, cable, far ends]` per segment, until the path splits. The
 * endpoint is read with the other objects of its path (it is the first), or alone when it has no path.
 */
export function traceRoute(ctx: PluginContext, key: string): RequestHandler {
  return async (req, res) => {
    const model = ctx.registry.get(key);
    const reader = ctx.as(req);
    await reader.require(model, 'view');
    const id = detailId(req);
    const origin = id === undefined ? undefined : nodeOf(key, id);
    const hops = origin ? await hopsFrom(ctx, origin) : [];
    if (!hops.length) {
      await detailObject(req, reader, model);
      return void res.json([]);
    }
    const cableModel = ctx.registry.get('dcim.cable');
    const cableIds = hops.filter((_, n) => n % 3 === 1).flat().map((n) => parseNode(n).id);
    const [lists, cableRows] = await Promise.all([
      listed(hops.filter((_, n) => n % 3 !== 1).flat(), reader, ctx),
      cableIds.length > 0 && (await reader.can(cableModel, 'view')) ? reader.list(cableModel, { ids: cableIds }) : undefined,
    ]);
    if (!lists.some(({ key, rows }) => key === model.key && rows.some((r) => r.id === id))) throw notFound();
    const { objects, cables } = await rendered(lists, cableRows && { model: cableModel, rows: cableRows }, reader);
    const segments: unknown[] = [];
    for (let n = 0; n + 2 < hops.length; n += 3) {
      const [near, cable, far] = hops.slice(n, n + 3);
      if (!near.length) break;
      const show = (nodes: PathNode[]) => nodes.flatMap((node) => objects.get(node) ?? []);
      segments.push([show(near), cable.length ? cables.get(parseNode(cable[0]).id) ?? null : null, show(far)]);
    }
    res.json(segments);
  };
}

/** `GET …/<id>/paths/` of a pass-through (front and rear ports, circuit terminations): every path through it. */
export function pathsRoute(ctx: PluginContext, key: string): RequestHandler {
  return async (req, res) => {
    const model = ctx.registry.get(key);
    const reader = ctx.as(req);
    const row = await detailObject(req, reader, model);
    const paths = (await ctx.db('dcim_cablepath').select('*').whereRaw(`id in (${pathsThrough()})`, [[nodeOf(key, row.id as number)]]).orderBy('id')) as StoredPath[];
    const { objects } = await rendered(await listed(paths.flatMap((p) => p.path.flat()), reader, ctx), undefined, reader);
    res.json(paths.map((p) => ({
      id: p.id,
      path: p.path.map((hop) => hop.flatMap((node) => objects.get(node) ?? [])),
      is_active: p.is_active,
      is_complete: p.is_complete,
      is_split: p.is_split,
    })));
  };
}

/**
 * `GET /api/dcim/connected-device/?peer_device=&peer_interface=`: the device at the far end of that interface's
 * path (NetBox's connected device locator, used by LLDP-driven automation).
 */
export function connectedDeviceRoute(ctx: PluginContext): RequestHandler {
  return async (req, res) => {
    const param = (name: string) => {
      const value = req.query[name];
      return typeof value === 'string' ? value : Array.isArray(value) ? String(value.at(-1)) : '';
    };
    const deviceName = param('peer_device');
    const interfaceName = param('peer_interface');
    if (!deviceName || !interfaceName) throw new HttpError(400, { detail: 'Request must include "peer_device" and "peer_interface" filters.' });
    const reader = ctx.as(req);
    const devices = ctx.registry.get('dcim.device');
    const interfaces = ctx.registry.get('dcim.interface');
    const [device] = await reader.list(devices, { where: cmp(['name'], 'exact', deviceName), limit: 1 });
    if (!device) throw notFound();
    const [peer] = await reader.list(interfaces, { where: and([cmp(['device'], 'exact', device.id), cmp(['name'], 'exact', interfaceName)]), limit: 1 });
    if (!peer) throw notFound();
    const far = destinations(await pathFrom(ctx.db, nodeOf('dcim.interface', peer.id as number)));
    if (!far.length || parseNode(far[0]).model !== 'dcim.interface') throw notFound();
    const farInterface = (await ctx.db('dcim_interface').select('device_id').where('id', parseNode(far[0]).id).first()) as Row | undefined;
    const found = farInterface ? await reader.get(devices, farInterface.device_id as number) : undefined;
    if (!found) throw notFound();
    const [rendered] = await reader.render(devices, [found]);
    res.json(rendered);
  };
}
