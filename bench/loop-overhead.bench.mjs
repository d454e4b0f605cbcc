// loop_overhead_ratio: a headless fixcycle run whose suite passes at once, over the bare test command
// on the same suite (a few seconds of node:test), alternated in one run; medians of each.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const ROUNDS = 7;

function makeSuite() {
  const dir = mkdtempSync(join(tmpdir(), 'fixcycle-bench-loop-'));
  mkdirSync(join(dir, 'test'));
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'bench', type: 'module', scripts: { test: 'node --test' } }),
  );
  for (let f = 0; f < 4; f++) {
    const tests = Array.from(
      { length: 20 },
      (_, i) =>
        `it('case ${i}', async () => { await new Promise((r) => setTimeout(r, 50)); assert.equal(${i} + 1, ${i + 1}); });`,
    );
    writeFileSync(
      join(dir, 'test', `suite${f}.test.js`),
      `import { it } from 'node:test';\nimport assert from 'node:assert/strict';\n${tests.join('\n')}\n`,
    );
  }
  const git = (...args) => execFileSync('git', args, { cwd: dir });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@fixcycle.invalid', 'add', '-A');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@fixcycle.invalid', 'commit', '-q', '-m', 'suite');
  return dir;
}

function time(fn) {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export default async function () {
  const dir = makeSuite();
  const bare = [];
  const loop = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      bare.push(time(() => execFileSync(process.execPath, ['--test'], { cwd: dir, stdio: 'ignore' })));
      loop.push(
        time(() =>
          execFileSync(
            process.execPath,
            [
              CLI,
              'run',
              '--headless',
              '--test-cmd',
              'node --test',
              '--agent-cmd',
              'true',
              '--session-name',
              `bench-${round}`,
            ],
            { cwd: dir, stdio: 'ignore' },
          ),
        ),
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    loop_overhead_ratio: median(loop) / median(bare),
    loop_bare_suite_s: median(bare),
    loop_fixcycle_run_s: median(loop),
  };
}
