import type { Request, RequestHandler } from 'express';
import { ValidationError, cmp, detailObject, paginate, type PluginContext, type Row } from 'patchbay';
import { DeviceFace } from '../choices/index.js';
import { Device } from '../models/device.js';
import { Rack } from '../models/rack.js';
import { rackSvg } from './rack-svg.js';
import { elevation, type Mounted } from './rack-units.js';

/** One query parameter, checked by `parse` (which throws a message), or its default. */
function param<T>(req: Request, name: string, fallback: T, parse: (text: string) => T): T {
  const value = req.query[name];
  if (value === undefined) return fallback;
  const text = Array.isArray(value) ? String(value[value.length - 1]) : String(value);
  try {
    return parse(text);
  } catch (err) {
    if (typeof err === 'string') throw ValidationError.of(name, err);
    throw err;
  }
}

const choice = (allowed: string[]) => (text: string) => {
  if (!allowed.includes(text)) throw `"${text}" is not a valid choice.`;
  return text;
};
const whole = (min: number, max: number) => (text: string) => {
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) throw `Ensure this value is a whole number between ${min} and ${max}.`;
  return Number(text);
};
const flag = (text: string) => {
  if (/^(true|1|yes|on)$/i.test(text)) return true;
  if (/^(false|0|no|off)$/i.test(text)) return false;
  throw 'Must be a valid boolean.';
};

/**
 * `GET /api/dcim/racks/<id>/elevation/`: the units of one face, paginated as NetBox does, each with the device
 * occupying it; `?render=svg` draws that face instead. Devices the reader may not view occupy their units
 * without being shown.
 */
export function elevationRoute(ctx: PluginContext): RequestHandler {
  return async (req, res) => {
    const reader = ctx.as(req);
    const rack = await detailObject(req, reader, Rack);
    const face = param(req, 'face', 'front', choice(['front', 'rear']));
    const render = param(req, 'render', 'json', choice(['json', 'svg']));
    const exclude = param<number | null>(req, 'exclude', null, whole(1, 2147483647));
    const expand = param(req, 'expand_devices', true, flag);

    const rows = (await ctx.db('dcim_device as d')
      .join('dcim_devicetype as t', 't.id', 'd.device_type_id')
      .join('dcim_devicerole as r', 'r.id', 'd.role_id')
      .select('d.id', 'd.position', 'd.face', 't.u_height', 't.is_full_depth', 'r.color')
      .where('d.rack_id', rack.id as number)
      .whereNotNull('d.position')
      .where('t.u_height', '>', 0)
      .whereNot('d.id', exclude ?? 0)) as Row[];
    const visibleRows = (await reader.can(Device, 'view')) ? await reader.list(Device, { where: cmp(['rack'], 'exact', rack.id) }) : [];
    const shown = new Map((await reader.render(Device, visibleRows, { mode: 'brief' })).map((d) => [d.id as number, d]));
    const mounted: Mounted[] = rows.map((r) => ({
      id: r.id as number,
      name: String(shown.get(r.id as number)?.display ?? ''),
      position: Number(r.position),
      height: Number(r.u_height),
      face: r.face as string,
      fullDepth: r.is_full_depth as boolean,
      color: r.color as string,
      visible: shown.has(r.id as number),
    }));

    if (render === 'svg') {
      const unitWidth = param(req, 'unit_width', 220, whole(50, 2000));
      const unitHeight = param(req, 'unit_height', 22, whole(8, 200));
      const legendWidth = param(req, 'legend_width', 30, whole(0, 500));
      const marginWidth = param(req, 'margin_width', 15, whole(0, 500));
      const base = `${req.protocol}://${req.get('host')}`;
      const devicePage = `${base}${ctx.registry.uiPath(Device)}`;
      const svg = rackSvg(rack, face, mounted, { unitWidth, unitHeight, legendWidth, marginWidth, deviceUrl: (d) => `${devicePage}${d}/` });
      res.type('image/svg+xml').send(svg);
      return;
    }

    const q = param(req, 'q', '', (text) => text.trim().toLowerCase());
    const units = elevation(rack, face, mounted, expand).filter((u) => !q || u.name.toLowerCase().includes(q));
    const page = paginate(req, ctx.settings, units);
    res.json({
      ...page,
      results: page.results.map((u) => ({
        id: u.id,
        name: u.name,
        face: { value: face, label: DeviceFace.label(face) },
        device: u.device ? shown.get(u.device.id) ?? null : null,
        occupied: u.occupied,
        ...(u.height !== undefined ? { height: u.height } : {}),
        display: u.name,
      })),
    });
  };
}
