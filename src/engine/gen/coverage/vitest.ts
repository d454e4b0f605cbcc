import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The coverage provider packages vitest loads, in the order vitest prefers them (v8 is its default). */
const PROVIDERS = ['v8', 'istanbul'] as const;
export type VitestProvider = (typeof PROVIDERS)[number];

function installed(root: string, pkg: string): boolean {
  for (let dir = root; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', pkg, 'package.json'))) return true;
    if (dirname(dir) === dir) return false;
  }
}

/** Which of vitest's coverage providers the project has installed (vitest loads it from the project), if any. */
export function vitestProvider(root: string): VitestProvider | null {
  return PROVIDERS.find((p) => installed(root, `@vitest/coverage-${p}`)) ?? null;
}

/**
 * vitest's own coverage as options on its command line: an istanbul JSON report (coverage-final.json) into
 * `dir`, written even when tests fail (vitest skips the report after a failure unless told), with the
 * provider the project has when it has only istanbul, and none of the project's coverage thresholds.
 */
export function vitestCoverageArgs(provider: VitestProvider, dir: string): string[] {
  return [
    '--coverage.enabled=true',
    ...(provider === 'istanbul' ? ['--coverage.provider=istanbul'] : []),
    '--coverage.reporter=json',
    `--coverage.reportsDirectory=${dir}`,
    '--coverage.reportOnFailure=true',
    // The project's thresholds off: a threshold the run misses would fail it although every test passed.
    '--coverage.thresholds.100=false',
    ...['lines', 'functions', 'branches', 'statements'].map((k) => `--coverage.thresholds.${k}=0`),
  ];
}
