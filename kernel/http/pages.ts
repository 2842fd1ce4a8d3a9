import { fileURLToPath } from 'node:url';
import { staticAssets } from './assets.js';

/** Where the style of the server's own pages (login, the browsable API, the tasks page) is served from. */
export const BROWSABLE_FILES = '/static/browsable/';

/** Only this server's files: no inline script or style can run on a page that shows what users wrote. */
export const PAGE_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** The pages' stylesheet, public as every `/static/` file. */
export const pageStyle = () => staticAssets({ 'browsable.css': { file: fileURLToPath(new URL('./assets/browsable.css', import.meta.url)) } });
