import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** What detection needs to know about a project: its package.json and which files exist. */
export interface ProjectFacts {
  cwd: string;
  /** package.json `scripts`; empty when there is no package.json. */
  scripts: Record<string, string>;
  /** Names in dependencies, devDependencies and optionalDependencies. */
  dependencies: Set<string>;
  /** True when package.json has a top-level `jest` key (jest's inline config). */
  jestConfigInPackage: boolean;
  /** Why package.json could not be read, when it exists but is broken. */
  packageError?: string;
  exists(relative: string): boolean;
  /** A text file's contents, or '' when it is missing. */
  read(relative: string): string;
  /** The names in a folder ('' for the root), or [] when it is missing. */
  list?(relative: string): string[];
}

/** Reads the facts of the project at `cwd` (never throws). */
export function readProject(cwd: string): ProjectFacts {
  const exists = (relative: string): boolean => existsSync(join(cwd, relative));
  const read = (relative: string): string => {
    try {
      return readFileSync(join(cwd, relative), 'utf8');
    } catch {
      return '';
    }
  };
  const list = (relative: string): string[] => {
    try {
      return readdirSync(join(cwd, relative));
    } catch {
      return [];
    }
  };
  const facts: ProjectFacts = {
    cwd,
    scripts: {},
    dependencies: new Set(),
    jestConfigInPackage: false,
    exists,
    read,
    list,
  };
  if (!exists('package.json')) return facts;
  try {
    const pkg = JSON.parse(read('package.json')) as Record<string, unknown>;
    for (const [name, value] of Object.entries(asRecord(pkg.scripts)))
      if (typeof value === 'string') facts.scripts[name] = value;
    for (const field of ['dependencies', 'devDependencies', 'optionalDependencies']) {
      for (const name of Object.keys(asRecord(pkg[field]))) facts.dependencies.add(name);
    }
    facts.jestConfigInPackage = typeof pkg.jest === 'object' && pkg.jest !== null;
  } catch (error) {
    facts.packageError = `package.json is not valid JSON (${(error as Error).message})`;
  }
  return facts;
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

/** The absolute path of a package binary in `node_modules/.bin`, looking up from `cwd` (monorepos), or null. */
export function findLocalBin(cwd: string, name: string): string | null {
  for (let dir = cwd; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', '.bin', name);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return null;
  }
}

/** The absolute path of an executable on PATH, or null. */
export function findOnPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return null;
}
