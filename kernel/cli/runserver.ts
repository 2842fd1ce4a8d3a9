import type { Plugin } from '../plugin.js';
import { createServer } from '../server.js';

/** Serves until SIGINT or SIGTERM, then closes connections and stops the embedded database cleanly. */
export async function runserver(_args: string[], builtins: Plugin[]): Promise<number> {
  const server = await createServer({ builtins });
  const url = await server.listen();
  server.log.info(`Patchbay listening on ${url}/api/`);
  const signal = await new Promise<NodeJS.Signals>((ok) => {
    process.once('SIGINT', ok);
    process.once('SIGTERM', ok);
  });
  server.log.info(`${signal}: shutting down`);
  await server.close();
  return 0;
}
