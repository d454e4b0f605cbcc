// Affected-test selection on a generated 10,000-file TypeScript repository, beside jest's own
// related-tests mode on the same repository.
//   affected_cold_s      selectAffectedTests for one changed file, no graph cache (fresh process)
//   affected_warm_s      the same with the cache of a previous selection, one file edited since (fresh process)
//   jest_related_cold_s  jest --findRelatedTests <file> --listTests with an empty cache directory
// Each figure is the median of RUNS runs; the *_files figures are how many test files each selected.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const entry = pathToFileURL(join(root, 'dist/engine/affected/index.js')).href;
const jestBin = join(root, 'node_modules/jest/bin/jest.js');

const FOLDERS = 100;
const MODULES_PER_FOLDER = 74; // plus index.ts: 75 sources and 25 tests per folder, 10,000 files
const TESTS_PER_FOLDER = 25;
const RUNS = 3;
const CHANGED = 'src/f40/m20.ts';

/** Deterministic pseudo-random numbers (mulberry32), so every run measures the same repository. */
function random(seed) {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (n) => String(n).padStart(2, '0');

function body(name) {
  const lines = [`export interface T${name} { id: string; count: number; tags: string[] }`, ''];
  lines.push(`export function run${name}(input: T${name}): number {`);
  for (let k = 0; k < 12; k++) lines.push(`  const v${k} = input.count * ${k + 1} + input.tags.length; // step ${k}`);
  lines.push(`  return ${Array.from({ length: 12 }, (_, k) => `v${k}`).join(' + ')};`, '}', '');
  lines.push(`export const label${name} = '${name}: ' + String(Math.PI / 2);`, '');
  return lines.join('\n');
}

function generate(dir) {
  const next = random(42);
  const pick = (n) => Math.floor(next() * n);
  const write = (path, text) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  write('package.json', JSON.stringify({ name: 'generated', private: true, type: 'module' }));
  write('tsconfig.json', JSON.stringify({
    compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, baseUrl: '.', paths: { '@/*': ['src/*'] } },
  }));
  for (let f = 0; f < FOLDERS; f++) {
    const folder = `src/f${pad(f)}`;
    for (let m = 0; m < MODULES_PER_FOLDER; m++) {
      const imports = [];
      const seen = new Set();
      const add = (line) => { if (!seen.has(line)) { seen.add(line); imports.push(line); } };
      // Fan-out: 1-3 siblings, often a module of an earlier folder (via paths or relative), sometimes a barrel.
      for (let k = 0, n = m === 0 ? 0 : 1 + pick(3); k < n; k++) {
        const to = pick(m);
        add(`import { run${f}_${to} } from './m${pad(to)}.js';`);
      }
      if (f > 0 && next() < 0.5) {
        const tf = pick(f);
        const tm = pick(MODULES_PER_FOLDER);
        add(next() < 0.5
          ? `import { label${tf}_${tm} } from '@/f${pad(tf)}/m${pad(tm)}.js';`
          : `import { label${tf}_${tm} } from '../f${pad(tf)}/m${pad(tm)}.js';`);
      }
      if (f > 0 && next() < 0.05) add(`import * as barrel${pick(f)} from '../f${pad(pick(f))}/index.js';`);
      // Type-only imports point anywhere, later folders included: following them would inflate selections.
      if (next() < 0.6) {
        const tf = pick(FOLDERS);
        const tm = pick(MODULES_PER_FOLDER);
        add(`import type { T${tf}_${tm} } from '@/f${pad(tf)}/m${pad(tm)}.js';`);
      }
      if (next() < 0.2) add(`import { join } from 'node:path';`);
      write(`${folder}/m${pad(m)}.ts`, `${imports.join('\n')}\n\n${body(`${f}_${m}`)}`);
    }
    const barrel = Array.from({ length: 10 }, (_, m) => `export * from './m${pad(m)}.js';`).join('\n');
    write(`${folder}/index.ts`, `${barrel}\n`);
    for (let t = 0; t < TESTS_PER_FOLDER; t++) {
      // Half the folders keep tests beside the code, half under test/.
      const path = f % 2 === 0 ? `${folder}/t${pad(t)}.test.ts` : `test/f${pad(f)}/t${pad(t)}.test.ts`;
      const from = f % 2 === 0 ? '.' : `@/f${pad(f)}`;
      const lines = [];
      for (let k = 0, n = 1 + pick(3); k < n; k++) {
        const to = pick(MODULES_PER_FOLDER);
        lines.push(`import { run${f}_${to} } from '${from}/m${pad(to)}.js';`);
      }
      lines.push('', `test('t${t}', () => { expect(1).toBe(1); });`, '');
      write(path, lines.join('\n'));
    }
  }
  execFileSync('git', ['init', '-q'], { cwd: dir });
  execFileSync('git', ['add', '-A'], { cwd: dir });
  execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', 'commit', '-qm', 'generated'], { cwd: dir });
}

/** Runs one selection in a fresh Node process, as the first selection of a fixcycle run would be. */
function selectInChild(cwd, cacheDir) {
  const code = `
    const { selectAffectedTests } = await import(${JSON.stringify(entry)});
    const started = performance.now();
    const s = await selectAffectedTests({ cwd: ${JSON.stringify(cwd)}, runner: 'vitest', changedFiles: [${JSON.stringify(CHANGED)}], lastFailedFiles: [], cacheDir: ${JSON.stringify(cacheDir)} });
    process.stdout.write(JSON.stringify({ inside: (performance.now() - started) / 1000, files: s.files, reason: s.reason }));`;
  const started = performance.now();
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
  return { seconds: (performance.now() - started) / 1000, ...JSON.parse(out) };
}

function jestRelated(cwd) {
  const cacheDirectory = mkdtempSync(join(tmpdir(), 'fixcycle-bench-jest-cache-'));
  const config = {
    rootDir: cwd,
    testMatch: ['**/*.test.ts'],
    moduleFileExtensions: ['ts', 'js', 'json'],
    moduleNameMapper: { '^@/(.*)\\.js$': '<rootDir>/src/$1.ts', '^(\\.{1,2}/.*)\\.js$': '$1' },
    cacheDirectory,
  };
  const started = performance.now();
  const result = spawnSync(process.execPath, [jestBin, '--config', JSON.stringify(config), '--no-watchman', '--listTests', '--findRelatedTests', join(cwd, CHANGED)], { cwd, encoding: 'utf8' });
  const seconds = (performance.now() - started) / 1000;
  rmSync(cacheDirectory, { recursive: true, force: true });
  if (result.status !== 0) throw new Error(`jest --findRelatedTests failed: ${result.stderr.slice(-500)}`);
  return { seconds, files: result.stdout.split('\n').filter((l) => l.endsWith('.test.ts')).length };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export default async function bench() {
  const dir = mkdtempSync(join(tmpdir(), 'fixcycle-bench-affected-'));
  try {
    generate(dir);
    const cold = [];
    const warm = [];
    const jest = [];
    let selected = 0;
    let jestFiles = 0;
    for (let run = 0; run < RUNS; run++) {
      const cacheDir = join(dir, `.cache-${run}`);
      const first = selectInChild(dir, cacheDir);
      cold.push(first.seconds);
      selected = Array.isArray(first.files) ? first.files.length : -1;
      // The fix edits the changed file; the cache still holds the old version of it.
      appendFileSync(join(dir, CHANGED), `\nexport const edit${run} = ${run};\n`);
      const second = selectInChild(dir, cacheDir);
      if (!second.reason.includes('cache warm')) throw new Error(`the second selection did not use the cache: ${second.reason}`);
      warm.push(second.seconds);
      const related = jestRelated(dir);
      jest.push(related.seconds);
      jestFiles = related.files;
    }
    return {
      affected_cold_s: median(cold),
      affected_warm_s: median(warm),
      jest_related_cold_s: median(jest),
      affected_selected_files: selected,
      jest_related_files: jestFiles,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
