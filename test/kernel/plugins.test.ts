import { describe, expect, it } from 'vitest';
import { SettingsError, loadSettings } from '../../kernel/config/load.js';
import { defineModel, definePlugin, f, type Plugin } from '../../kernel/index.js';
import { loadPlugins } from '../../kernel/plugins/loader.js';
import { createServer } from '../../kernel/server.js';
import { builtinPlugins } from '../../plugins/index.js';
import { EXAMPLE_PLUGIN } from '../helpers/server.js';

/** Start-up must stop before it touches the database; this URL would fail if it were used. */
const UNUSED_DB = 'postgres://nobody:nothing@127.0.0.1:1/none';

async function startupError(settings: Record<string, unknown>): Promise<SettingsError> {
  const err = await createServer({ builtins: builtinPlugins, env: { PATCHBAY_CONFIG: '' }, settings: { DATABASE_URL: UNUSED_DB, ...settings } }).then(
    () => {
      throw new Error('start-up should have failed');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SettingsError);
  return err as SettingsError;
}

describe('plugin loading', () => {
  it('stops start-up on an invalid plugin config, naming the plugin and the field', async () => {
    expect((await startupError({ PLUGINS: [EXAMPLE_PLUGIN], PLUGINS_CONFIG: { maintenance: { horizon_days: 0 } } })).message).toMatch(
      /^PLUGINS_CONFIG\.maintenance\.horizon_days: Expected a integer greater than or equal to 1/,
    );
    expect((await startupError({ PLUGINS: [EXAMPLE_PLUGIN], PLUGINS_CONFIG: { maintenance: { horizon_days: 'soon' } } })).message).toMatch(
      /^PLUGINS_CONFIG\.maintenance\.horizon_days: Expected an integer/,
    );
    expect((await startupError({ PLUGINS: [EXAMPLE_PLUGIN], PLUGINS_CONFIG: { maintenance: { colour: 'red' } } })).message).toBe(
      'PLUGINS_CONFIG.maintenance.colour: unknown setting of plugin maintenance',
    );
    expect((await startupError({ PLUGINS_CONFIG: { tenancy: { x: 1 } } })).message).toBe(
      'PLUGINS_CONFIG.tenancy.x: plugin tenancy takes no settings',
    );
    expect((await startupError({ PLUGINS_CONFIG: { ghost: {} } })).message).toBe('PLUGINS_CONFIG.ghost: no enabled plugin is called ghost');
  });

  it('stops start-up on an incompatible kernel version or a module that is no plugin', async () => {
    expect((await startupError({ PLUGINS: ['./test/fixtures/plugins/future.ts'] })).message).toMatch(
      /^plugin future: version 2\.0\.0 requires Patchbay kernel \^9\.0\.0, but this is \d+\.\d+\.\d+$/,
    );
    expect((await startupError({ PLUGINS: ['./test/fixtures/plugins/not-a-plugin.ts'] })).message).toBe(
      'PLUGINS: "./test/fixtures/plugins/not-a-plugin.ts" does not export a plugin made with definePlugin()',
    );
    expect((await startupError({ PLUGINS: ['./test/fixtures/plugins/missing.ts'] })).message).toMatch(/^PLUGINS: cannot load "\.\/test\/fixtures\/plugins\/missing\.ts"/);
    expect((await startupError({ PLUGINS: [EXAMPLE_PLUGIN, EXAMPLE_PLUGIN] })).message).toBe('plugin maintenance: enabled twice in PLUGINS');
  });

  it('rejects malformed plugin definitions when they are declared', () => {
    expect(() => definePlugin({ name: 'Bad-Name', version: '1.0.0', kernel: '*' })).toThrow(/Plugin name "Bad-Name" must match/);
    expect(() => definePlugin({ name: 'ok', version: '1.0.0', kernel: '*', basePath: '/elsewhere/' })).toThrow(/basePath "\/elsewhere\/"/);
  });

  it('refuses a plugin whose dependency is not enabled, and a model that refers to a model no enabled plugin provides', async () => {
    const start = (builtins: Plugin[]) =>
      createServer({ builtins, env: { PATCHBAY_CONFIG: '' }, settings: { DATABASE_URL: UNUSED_DB, PLUGINS: [EXAMPLE_PLUGIN] } }).catch((e: Error) => e);
    expect(((await start([])) as Error).message).toBe('plugin maintenance: needs plugin tenancy, which is not enabled');
    // A plugin of that name that lacks the model.
    const hollow = definePlugin({ name: 'tenancy', version: '1.0.0', kernel: '*', basePath: '/api/tenancy/' });
    expect(((await start([hollow])) as Error).message).toBe('plugin maintenance: maintenance.window.tenant refers to tenancy.tenant, which no enabled plugin provides');
  });

  it('stops start-up on a mistake in a model declaration with one line naming the plugin, never a stack', async () => {
    const start = (...models: ReturnType<typeof defineModel>[]) =>
      createServer({
        builtins: [...builtinPlugins, definePlugin({ name: 'bgp', version: '1.0.0', kernel: '*', dependencies: ['dcim'], models })],
        env: { PATCHBAY_CONFIG: '' }, settings: { DATABASE_URL: UNUSED_DB },
      }).then(() => undefined, (e: unknown) => e);
    const briefless = await start(defineModel('bgp.session', { path: 'sessions', fields: { name: f.string({ max: 50 }) }, brief: ['peer'] }));
    expect(briefless).toBeInstanceOf(SettingsError);
    expect((briefless as Error).message).toBe('plugin bgp: bgp.session: brief field "peer" is not a field of the model, nor a key of one');
    const ghost = await start(defineModel('bgp.session', { path: 'sessions', fields: { peer: f.fk('bgp.peer') }, brief: [] }));
    expect((ghost as Error).message).toBe('plugin bgp: bgp.session.peer refers to bgp.peer, which no enabled plugin provides');
    // A GraphQL name a built-in model has: refused at start, naming both (className renames it).
    const clash = await start(defineModel('bgp.site', { path: 'sites', fields: { name: f.string({ max: 50 }) }, brief: ['name'] }));
    expect((clash as Error).message).toBe('plugin bgp: bgp.site and dcim.site are both called Site in GraphQL: declare the className of one');
    const renamed = await start(defineModel('bgp.site', { path: 'sites', className: 'BgpSite', fields: { name: f.string({ max: 50 }) }, brief: ['name'] }));
    // Past the declarations, as far as the database this test does not give.
    expect((renamed as Error).message).toMatch(/^DATABASE_URL: cannot connect/);
    // What TypeScript requires, a plugin in JavaScript may leave out.
    const declaration = { path: 'sessions', fields: {} } as unknown as Parameters<typeof defineModel>[1];
    expect(() => defineModel('bgp.session', declaration)).toThrow('bgp.session: the declaration has no "brief"');
  });

  it("refuses an action on a model no enabled plugin declares, or on one of a plugin it does not depend on", async () => {
    const settings = loadSettings({ DATABASE_URL: UNUSED_DB }, { PATCHBAY_CONFIG: '' });
    const acting = (model: string, dependencies: string[] = []) => definePlugin({
      name: 'acting', version: '1.0.0', kernel: '*', dependencies,
      actions: [{ model, name: 'poke', method: 'post', handler: () => (_req, res) => void res.json({}) }],
    });
    await expect(loadPlugins([...builtinPlugins, acting('dcim.gizmo', ['dcim'])], settings)).rejects.toThrow(
      'plugin acting: the action poke on dcim.gizmo: no enabled plugin declares dcim.gizmo',
    );
    await expect(loadPlugins([...builtinPlugins, acting('dcim.device')], settings)).rejects.toThrow(
      'plugin acting: the action poke on dcim.device: dcim.device is a model of plugin dcim, which is not among its dependencies',
    );
    expect((await loadPlugins([...builtinPlugins, acting('dcim.device', ['dcim'])], settings)).map((e) => e.plugin.name)).toContain('acting');
  });

  it('refuses a model referring to a model of a plugin it does not depend on, in one line naming both', async () => {
    const settings = loadSettings({ DATABASE_URL: UNUSED_DB }, { PATCHBAY_CONFIG: '' });
    const referring = (dependencies: string[]) => definePlugin({
      name: 'referring', version: '1.0.0', kernel: '*', dependencies,
      models: [defineModel('referring.thing', { path: 'things', fields: { name: f.string({ max: 50 }), site: f.fk('dcim.site', { nullable: true }) }, brief: ['name'] })],
    });
    await expect(loadPlugins([...builtinPlugins, referring(['tenancy'])], settings)).rejects.toThrow(
      'plugin referring: referring.thing.site refers to dcim.site, a model of plugin dcim, which is not among its dependencies',
    );
    await expect(loadPlugins(builtinPlugins.filter((p) => ['users', 'core', 'tenancy'].includes(p.name)).concat(referring([])), settings)).rejects.toThrow(
      'plugin referring: referring.thing.site refers to dcim.site, a model of plugin dcim, which is not enabled',
    );
    // Through a dependency's dependencies: ipam depends on dcim.
    expect((await loadPlugins([...builtinPlugins, referring(['ipam'])], settings)).map((e) => e.plugin.name)).toContain('referring');
  });

  it('registers and migrates plugins after those they depend on, and refuses a circle', async () => {
    const plugin = (name: string, dependencies: string[]) => definePlugin({ name, version: '1.0.0', kernel: '*', dependencies });
    const settings = loadSettings({ DATABASE_URL: UNUSED_DB }, { PATCHBAY_CONFIG: '' });
    const order = async (plugins: Plugin[]) => (await loadPlugins(plugins, settings)).map((e) => e.plugin.name);
    expect(await order([plugin('c', ['b']), plugin('b', ['a']), plugin('a', []), plugin('d', [])])).toEqual(['a', 'b', 'c', 'd']);
    expect(await order([plugin('a', []), plugin('b', ['a'])])).toEqual(['a', 'b']);
    await expect(order([plugin('a', ['c']), plugin('b', ['a']), plugin('c', ['b'])])).rejects.toThrow(
      'PLUGINS: plugins depend on each other in a circle: a → c → b → a',
    );
    // The built-in apps too: dcim after tenancy, whatever order they are listed in.
    const names = await order([...builtinPlugins].reverse());
    for (const p of builtinPlugins) for (const d of p.dependencies ?? []) expect(names.indexOf(d)).toBeLessThan(names.indexOf(p.name));
  });
});
