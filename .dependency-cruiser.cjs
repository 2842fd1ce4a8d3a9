/**
 * The import rules of docs/architecture.md, checked by `npm test` (test/kernel/architecture.test.ts) over the value
 * imports (type-only imports vanish at run time, and a type may name what sits above it).
 *
 * The kernel's layers, bottom first: a folder imports values only from its own layer and those below it.
 */
const LAYERS = [
  ['base'],
  ['config'],
  ['filters'],
  ['model'],
  ['db'],
  ['read', 'write', 'events', 'queue', 'render'],
  ['http'],
  ['auth'],
  ['rest', 'openapi', 'graphql'],
  ['metrics'],
  ['plugins', 'app'],
];
const folders = (layers) => `^kernel/(${layers.flat().join('|')})/`;

const layerRules = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `layer-${layer.join('-')}`,
  comment: `kernel/{${layer.join(',')}} imports no value from the layers above it`,
  severity: 'error',
  from: { path: folders(layer) },
  to: { path: [folders(LAYERS.slice(i + 1)), '^kernel/[^/]+\\.ts$'] },
}));

// The apps: each imports the kernel as `patchbay` only, and another app only through its public face (api.ts),
// and only an app it declares as a dependency (checked beside this file, from each plugin's `dependencies`).
const APPS = ['users', 'core', 'browsable', 'tenancy', 'extras', 'dcim', 'ipam', 'virtualization', 'circuits'];
const appRules = APPS.map((app) => ({
  name: `${app}-imports-faces-only`,
  comment: `plugins/${app} imports another app only through its api.ts`,
  severity: 'error',
  from: { path: `^plugins/${app}/` },
  to: { path: '^plugins/([^/]+)/', pathNot: [`^plugins/${app}/`, '^plugins/[^/]+/api\\.ts$'] },
}));

module.exports = {
  forbidden: [
    { name: 'no-circular', comment: 'no module imports a value that imports it back', severity: 'error', from: {}, to: { circular: true } },
    ...layerRules,
    ...appRules,
    {
      name: 'plugins-use-patchbay',
      comment: 'an app (built-in or example) reaches the kernel only through its public API, imported as patchbay',
      severity: 'error',
      from: { path: '^(plugins|examples/plugins)/' },
      to: { path: '^kernel/', pathNot: '^kernel/index\\.ts$' },
    },
    {
      name: 'kit-for-tests-only',
      comment: 'the test kit (patchbay/testing) starts servers for tests: no server code imports it',
      severity: 'error',
      from: { path: '^(kernel|plugins|cli|examples|packages)/', pathNot: '(\\.test\\.ts|/vitest\\.config\\.ts)$' },
      to: { path: '^testing/' },
    },
    {
      name: 'kernel-names-no-app',
      comment: 'the kernel knows no app: apps plug into it',
      severity: 'error',
      from: { path: '^kernel/' },
      to: { path: '^(plugins|cli|examples)/' },
    },
    {
      name: 'packages-stand-alone',
      comment: 'the libraries in packages/ (the Jinja2 engine, the template processes, the queue, the embedded servers, cluster metrics, guards) know nothing of Patchbay',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^(kernel|plugins|cli)/' },
    },
  ],
  options: {
    tsPreCompilationDeps: false,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|test/openapi/typed-client)' },
  },
};
