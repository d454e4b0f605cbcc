import { createRequire } from 'node:module';
import type { GlobOptions, globSync as GlobSync } from 'tinyglobby';

// tinyglobby (with fdir and picomatch, ~90 kB to load) serves only a command with an unquoted glob word or a
// monorepo's workspace patterns: most runs have neither, so it loads on first use, not with every start.
// Through require because both callers are synchronous (the command analysis is); it loads from fixcycle's
// node_modules, like the bundle's other external packages.
let loaded: typeof GlobSync | undefined;

/** tinyglobby's globSync, loaded on the first call. */
export function globSync(patterns: string | readonly string[], options: Omit<GlobOptions, 'patterns'>): string[] {
  loaded ??= (createRequire(import.meta.url)('tinyglobby') as { globSync: typeof GlobSync }).globSync;
  return loaded(patterns, options);
}
