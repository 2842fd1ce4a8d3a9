import { fileURLToPath } from 'node:url';
import { definePlugin, staticAssets } from 'patchbay';
import { BrowsableApi } from './api.js';
import { SCRIPT_FILES } from './page.js';

/**
 * The browsable API, in the manner of Django REST framework's: every answer of the API a browser asks for is shown as
 * a page (the request and response, links, pages, filters, forms for the methods the user may send). Mounted on the
 * HTTP surface as a page renderer, beside its script; without this plugin browsers get the JSON.
 */
export default definePlugin({
  name: 'browsable',
  label: 'Browsable API',
  version: '0.1.0',
  kernel: '*',
  // Nothing is served below it: the pages are the API's own answers.
  basePath: '/api/browsable/',
  http(surface, ctx) {
    surface.pages(new BrowsableApi(ctx.registry, ctx.filters, ctx.plugins.map((p) => p.plugin), ctx.log, surface));
    surface.mount(SCRIPT_FILES, staticAssets({ 'browsable.js': { file: fileURLToPath(new URL('./assets/browsable.js', import.meta.url)) } }));
  },
});
