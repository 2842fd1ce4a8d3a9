import { run } from '../kernel/cli/run.js';
import { builtinPlugins } from '../plugins/index.js';

process.exitCode = await run(process.argv.slice(2), builtinPlugins);
