import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The fixcycle package's root folder, found by walking up from `moduleUrl` to its package.json. Modules
 * sit at different depths under src/, dist/ and the bundled dist/chunks/, so a fixed `../..` cannot be used.
 */
export function packageRoot(moduleUrl: string): string {
  let dir = dirname(fileURLToPath(moduleUrl));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'fixcycle')
      return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`fixcycle's package.json was not found above ${fileURLToPath(moduleUrl)}`);
    dir = parent;
  }
}
