import { run } from '../cli/run.js';
import { builtinPlugins } from '../plugins/index.js';

// Exit explicitly: libraries' exit hooks would otherwise replace the command's exit code.
process.exit(await run(process.argv.slice(2), builtinPlugins));
