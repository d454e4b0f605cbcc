// Affected-test selection on a generated 10,000-file TypeScript repository, beside jest's own
// related-tests mode on the same repository.
//   affected_cold_s      selectAffectedTests for one changed file with no graph cache, as a whole fresh
//                        Node process (start and imports included, as in jest's figure)
//   affected_warm_s      the next selection in that process, after the file was edited: the saved
//                        graph is loaded, every file checked by mtime+size, the edited one re-read
//   affected_warm_process_s  the same selection as a whole fresh Node process (start and imports included)
//   jest_related_cold_s  jest --findRelatedTests <file> --listTests with an empty cache directory
// Each figure is the median of RUNS runs; the *_files figures are how many test files each selected,
// and affected_same_as_jest is 1 when the two selections are the same files.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
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
  write(
    'tsconfig.json',
    JSON.stringify({
      compilerOptions: {
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        baseUrl: '.',
        paths: { '@/*': ['src/*'] },
      },
    }),
  );
  for (let f = 0; f < FOLDERS; f++) {
    const folder = `src/f${pad(f)}`;
    for (let m = 0; m < MODULES_PER_FOLDER; m++) {
      const imports = [];
      const seen = new Set();
      const add = (line) => {
        if (!seen.has(line)) {
          seen.add(line);
          imports.push(line);
        }
      };
      // Fan-out: 1-3 siblings, often a module of an earlier folder (via paths or relative), sometimes a barrel.
      for (let k = 0, n = m === 0 ? 0 : 1 + pick(3); k < n; k++) {
        const to = pick(m);
        add(`import { run${f}_${to} } from './m${pad(to)}.js';`);
      }
      if (f > 0 && next() < 0.5) {
        const tf = pick(f);
        const tm = pick(MODULES_PER_FOLDER);
        add(
          next() < 0.5
            ? `import { label${tf}_${tm} } from '@/f${pad(tf)}/m${pad(tm)}.js';`
            : `import { label${tf}_${tm} } from '../f${pad(tf)}/m${pad(tm)}.js';`,
        );
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
  execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', 'commit', '-qm', 'generated'], {
    cwd: dir,
  });
}

/**
 * One fixcycle run in a fresh Node process: the first selection builds the graph with no cache
 * (timed from outside, Node's start included, like jest's figure), then the fix edits the changed
 * file and the next iteration's selection reuses the saved graph (timed inside the process, where
 * the loop runs it).
 */
function coldThenWarm(cwd, cacheDir, edit) {
  const args = `{ cwd: ${JSON.stringify(cwd)}, runner: 'vitest', changedFiles: [${JSON.stringify(CHANGED)}], lastFailedFiles: [], cacheDir: ${JSON.stringify(cacheDir)} }`;
  const code = `
    const { appendFileSync } = await import('node:fs');
    const { selectAffectedTests } = await import(${JSON.stringify(entry)});
    const cold = await selectAffectedTests(${args});
    process.stdout.write(JSON.stringify(cold) + '\\n');
    await new Promise((resolve) => process.stdin.once('data', resolve));
    appendFileSync(${JSON.stringify(join(cwd, CHANGED))}, ${JSON.stringify(edit)});
    const started = performance.now();
    const warm = await selectAffectedTests(${args});
    process.stdout.write(JSON.stringify({ ...warm, seconds: (performance.now() - started) / 1000 }) + '\\n');
    process.exit(0);`;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['pipe', 'pipe', 'inherit'] });
    let buffered = '';
    const answers = [];
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      buffered += chunk;
      let newline;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const answer = JSON.parse(buffered.slice(0, newline));
        buffered = buffered.slice(newline + 1);
        if (answers.length === 0) answer.seconds = (performance.now() - started) / 1000;
        answers.push(answer);
        if (answers.length === 1) child.stdin.write('go\n');
      }
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      answers.length === 2 ? resolve(answers) : reject(new Error(`selection process exited with ${code}`)),
    );
  });
}

/** A selection in a fresh Node process with the cache on disk: start, imports and lexer set-up included. */
function warmProcess(cwd, cacheDir, edit) {
  appendFileSync(join(cwd, CHANGED), edit);
  const code = `
    const { selectAffectedTests } = await import(${JSON.stringify(entry)});
    const s = await selectAffectedTests({ cwd: ${JSON.stringify(cwd)}, runner: 'vitest', changedFiles: [${JSON.stringify(CHANGED)}], lastFailedFiles: [], cacheDir: ${JSON.stringify(cacheDir)} });
    process.stdout.write(s.reason);`;
  const started = performance.now();
  const reason = execFileSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
  if (!reason.includes('cache warm')) throw new Error(`the selection did not use the cache: ${reason}`);
  return (performance.now() - started) / 1000;
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
  const result = spawnSync(
    process.execPath,
    [
      jestBin,
      '--config',
      JSON.stringify(config),
      '--no-watchman',
      '--listTests',
      '--findRelatedTests',
      join(cwd, CHANGED),
    ],
    { cwd, encoding: 'utf8' },
  );
  const seconds = (performance.now() - started) / 1000;
  rmSync(cacheDirectory, { recursive: true, force: true });
  if (result.status !== 0) throw new Error(`jest --findRelatedTests failed: ${result.stderr.slice(-500)}`);
  return {
    seconds,
    files: result.stdout
      .split('\n')
      .filter((l) => l.endsWith('.test.ts'))
      .map((l) => relative(cwd, l))
      .sort(),
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export default async function bench() {
  const dir = mkdtempSync(join(tmpdir(), 'fixcycle-bench-affected-'));
  const caches = mkdtempSync(join(tmpdir(), 'fixcycle-bench-affected-cache-'));
  try {
    generate(dir);
    const cold = [];
    const warm = [];
    const warmProcesses = [];
    const jest = [];
    let selected = [];
    let jestFiles = [];
    for (let run = 0; run < RUNS; run++) {
      const [first, second] = await coldThenWarm(
        dir,
        join(caches, `run-${run}`),
        `\nexport const edit${run} = ${run};\n`,
      );
      if (!first.reason.includes('cache cold') || !second.reason.includes('cache warm')) {
        throw new Error(`unexpected cache use: ${first.reason} / ${second.reason}`);
      }
      cold.push(first.seconds);
      warm.push(second.seconds);
      warmProcesses.push(warmProcess(dir, join(caches, `run-${run}`), `\nexport const again${run} = ${run};\n`));
      selected = second.files;
      const related = jestRelated(dir);
      jest.push(related.seconds);
      jestFiles = related.files;
    }
    return {
      affected_cold_s: median(cold),
      affected_warm_s: median(warm),
      affected_warm_process_s: median(warmProcesses),
      jest_related_cold_s: median(jest),
      affected_selected_files: Array.isArray(selected) ? selected.length : -1,
      jest_related_files: jestFiles.length,
      // 1 when both picked exactly the same test files (a check on the graph, not a speed figure).
      affected_same_as_jest: JSON.stringify(selected) === JSON.stringify(jestFiles) ? 1 : 0,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(caches, { recursive: true, force: true });
  }
}
