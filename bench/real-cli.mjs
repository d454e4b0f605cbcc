// Shared by the real-CLI benches: loads the model-API stand-in and the harness (TypeScript, under
// test/real-cli/) by bundling them with esbuild, and makes the small buggy repository the runs work on.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
    'test/math.test.js': "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { add } from '../src/math.js';\n\ntest('adds two numbers', () => assert.equal(add(2, 3), 5));\n",
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

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
