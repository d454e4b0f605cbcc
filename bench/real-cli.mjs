// Shared by the real-CLI benches: loads the model-API stand-in and the harness (TypeScript, under
// test/real-cli/) by bundling them with esbuild, and makes the small buggy repository the runs work on.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

/** `{ startStandIn, findRealCli, gatewayEnv, dir }`: the stand-in and harness, bundled into a temp folder. */
export async function loadRealCliKit() {
  const dir = mkdtempSync(join(tmpdir(), 'fixcycle-bench-kit-'));
  await build({
    entryPoints: { kit: join(root, 'bench/real-cli-kit.ts') },
    outdir: dir,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
  return { ...(await import(pathToFileURL(join(dir, 'kit.js')).href)), dir };
}

/** A git repository whose one test fails: add() subtracts. */
export function makeBuggyRepo(extra = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'fixcycle-bench-real-'));
  const files = {
    'package.json': '{ "name": "calc", "type": "module", "scripts": { "test": "node --test" } }\n',
    'src/math.js': 'export function add(a, b) {\n  return a - b;\n}\n',
    'test/math.test.js':
      "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { add } from '../src/math.js';\n\ntest('adds two numbers', () => assert.equal(add(2, 3), 5));\n",
    ...extra,
  };
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  const git = (...args) => execFileSync('git', args, { cwd: dir });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@fixcycle.invalid', 'add', '-A');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@fixcycle.invalid', 'commit', '-q', '-m', 'calc');
  return dir;
}

/**
 * The real-CLI sets a bench measures: the pinned one (npm run real-clis) under the bare metric names, and the
 * newest releases (npm run real-clis -- --latest) under names with `_latest` before the unit, when installed.
 */
export const REAL_CLI_SETS = [
  {
    root: process.env.FIXCYCLE_REAL_CLIS || join(homedir(), '.cache', 'fixcycle', 'real-clis'),
    name: (metric) => metric,
  },
  {
    root: process.env.FIXCYCLE_REAL_CLIS_LATEST || join(homedir(), '.cache', 'fixcycle', 'real-clis-latest'),
    name: (metric) => metric.replace(/(_s|_requests)?$/, (unit) => `_latest${unit}`),
  },
];

/** Runs `measure(kit, name)` once per set of REAL_CLI_SETS, with the kit loaded once; their figures merged. */
export async function measureEachRealCliSet(measure) {
  const kit = await loadRealCliKit();
  const figures = {};
  try {
    for (const set of REAL_CLI_SETS) Object.assign(figures, await withRealClis(set.root, () => measure(kit, set.name)));
  } finally {
    rmSync(kit.dir, { recursive: true, force: true });
  }
  return figures;
}

/** Runs `measure` with the harness pointed at `root` (FIXCYCLE_REAL_CLIS), restoring it after. */
async function withRealClis(root, measure) {
  const before = process.env.FIXCYCLE_REAL_CLIS;
  process.env.FIXCYCLE_REAL_CLIS = root;
  try {
    return await measure();
  } finally {
    if (before === undefined) delete process.env.FIXCYCLE_REAL_CLIS;
    else process.env.FIXCYCLE_REAL_CLIS = before;
  }
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
