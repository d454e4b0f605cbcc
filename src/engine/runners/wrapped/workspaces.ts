import { globSync } from '../glob-sync.js';
import type { ProjectFacts } from '../project.js';

/**
 * The package folders of a monorepo, relative to its root: package.json `workspaces` (npm, yarn), then
 * pnpm-workspace.yaml's `packages`, then lerna.json's `packages`. Empty when the project declares none.
 */
export function workspacePackages(project: ProjectFacts): string[] {
  const patterns = declaredPatterns(project);
  if (patterns.length === 0) return [];
  const include = patterns.filter((p) => !p.startsWith('!')).map((p) => `${p.replace(/\/$/, '')}/package.json`);
  const ignore = [
    '**/node_modules/**',
    ...patterns.filter((p) => p.startsWith('!')).map((p) => `${p.slice(1).replace(/\/$/, '')}/package.json`),
  ];
  return globSync(include, { cwd: project.cwd, ignore })
    .map((file) => file.replace(/\/?package\.json$/, '') || '.')
    .sort();
}

function declaredPatterns(project: ProjectFacts): string[] {
  try {
    const pkg = JSON.parse(project.read('package.json') || '{}') as { workspaces?: string[] | { packages?: string[] } };
    const fromPackage = Array.isArray(pkg.workspaces) ? pkg.workspaces : (pkg.workspaces?.packages ?? []);
    if (fromPackage.length > 0) return fromPackage;
  } catch {
    // A broken package.json is reported where the runner is resolved.
  }
  const pnpm = project.read('pnpm-workspace.yaml');
  if (pnpm) {
    const block = /^packages:\s*\n((?:\s+-.*\n?)+)/m.exec(pnpm)?.[1] ?? '';
    const listed = [...block.matchAll(/^\s+-\s*['"]?([^'"\n#]+?)['"]?\s*$/gm)].map((m) => m[1]!);
    if (listed.length > 0) return listed;
  }
  try {
    const lerna = JSON.parse(project.read('lerna.json') || '{}') as { packages?: string[] };
    if (lerna.packages?.length) return lerna.packages;
    if (project.exists('lerna.json')) return ['packages/*'];
  } catch {
    // An unreadable lerna.json declares nothing.
  }
  return [];
}

/** The package (a folder of `packages`) a repository-relative file belongs to: the deepest that holds it. */
export function packageOf(file: string, packages: readonly string[]): string | null {
  let best: string | null = null;
  for (const dir of packages) {
    if (dir !== '.' && (file === dir || file.startsWith(`${dir}/`)) && (best === null || dir.length > best.length))
      best = dir;
  }
  return best;
}
