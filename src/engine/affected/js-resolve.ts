import { dirname, join, relative, sep } from 'node:path';
import { existsSync, realpathSync } from 'node:fs';
import { ResolverFactory, type NapiResolveOptions } from 'oxc-resolver';

/** Where a specifier leads: a project file (relative to cwd), `''` for a package or builtin, `null` for nowhere. */
export type Target = string | null;

/** Resolves specifiers the way Node, TypeScript (NodeNext, tsconfig paths) and bundlers do. */
export type ResolveSpecifier = (fromFile: string, specifier: string) => Target;

const OPTIONS: NapiResolveOptions = {
  extensions: ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '.json', '.node'],
  // NodeNext: `./a.js` in TypeScript source means `./a.ts`.
  extensionAlias: {
    '.js': ['.ts', '.tsx', '.js', '.jsx'],
    '.jsx': ['.tsx', '.jsx'],
    '.mjs': ['.mts', '.mjs'],
    '.cjs': ['.cts', '.cjs'],
  },
  conditionNames: ['node', 'import', 'require', 'default'],
  mainFields: ['module', 'main'],
  builtinModules: true,
};

/**
 * A resolver for files under `cwd` (relative paths in and out). Each file gets the tsconfig that
 * includes it; a file outside every tsconfig's `include` (often the tests) falls back to the root
 * tsconfig's `paths`, as vitest and jest setups that map those paths do.
 */
export function createResolver(cwd: string): ResolveSpecifier {
  const perFile = new ResolverFactory({ ...OPTIONS, tsconfig: 'auto' });
  const rootConfig = ['tsconfig.json', 'jsconfig.json'].map((name) => join(cwd, name)).find((p) => existsSync(p));
  // Not `cloneWithOptions`: a clone shares the cache, which remembers the first resolver's failure.
  const root = rootConfig ? new ResolverFactory({ ...OPTIONS, tsconfig: { configFile: rootConfig } }) : null;
  // Files in one folder resolve a specifier alike; most imports repeat within a folder.
  const memo = new Map<string, Target>();
  // The resolver answers real paths (symlinks followed); a project under a symlink (macOS /tmp) needs both.
  const realCwd = realpathSync(cwd);

  return (fromFile, specifier) => {
    const dir = dirname(fromFile);
    const key = `${dir}\0${specifier}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    const absolute = join(cwd, fromFile);
    let result = perFile.resolveFileSync(absolute, specifier);
    if (!result.path && !result.builtin && root && !specifier.startsWith('.')) {
      result = root.sync(dirname(absolute), specifier);
    }
    let target: Target = null;
    if (result.builtin) target = '';
    else if (result.path) target = toProjectPath(result.path.startsWith(realCwd + sep) ? realCwd : cwd, result.path);
    memo.set(key, target);
    return target;
  };
}

function toProjectPath(cwd: string, absolute: string): string {
  const rel = relative(cwd, absolute);
  if (rel.startsWith('..') || rel.includes('node_modules')) return '';
  return sep === '/' ? rel : rel.split(sep).join('/');
}
