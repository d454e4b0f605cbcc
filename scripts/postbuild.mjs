// Makes the built CLI executable so `bin` works after `npm run build` and `npm link`.
import { chmodSync, existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (existsSync(cli)) chmodSync(cli, 0o755);
