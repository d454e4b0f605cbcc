import { describe, expect, it, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa, makeRepo, removeRepos, ROOT } from '../helpers/repo.js';
import { readCobertura } from '../../src/engine/gen/coverage/cobertura.js';
import { readCoveragePyJson } from '../../src/engine/gen/coverage/coverage-py.js';
import { readIstanbulJson } from '../../src/engine/gen/coverage/istanbul-json.js';
import { readLcov } from '../../src/engine/gen/coverage/lcov.js';
import { changedCoverage, type CoverageData } from '../../src/engine/gen/coverage/model.js';
import { readReportDir } from '../../src/engine/gen/coverage/report-dir.js';

afterAll(removeRepos);

const all = () => true;

/** Per file: the lines with their hit/miss, and per line how many branches there are and how many ran. */
function summary(
  data: CoverageData,
): Record<string, { lines: Record<string, boolean>; branches: Record<number, string> }> {
  return Object.fromEntries(
    Object.entries(data).map(([file, f]) => {
      const branches: Record<number, string> = {};
      for (const line of new Set(f.branches.map(([l]) => l))) {
        const on = f.branches.filter(([l]) => l === line);
        branches[line] = `${on.filter(([, c]) => c).length}/${on.length}`;
      }
      return [file, { lines: Object.fromEntries(Object.entries(f.lines).map(([l, hits]) => [l, hits > 0])), branches }];
    }),
  );
}

const js = [
  'export function grade(n) {',
  "  if (n >= 90) return 'A';",
  "  const pass = n >= 50 ? 'pass' : 'fail';",
  '  switch (pass) {',
  "    case 'pass':",
  "      return 'B';",
  '    default:',
  "      return 'F';",
  '  }',
  '}',
  '',
].join('\n');

describe('standard coverage reports, read from the real tools', () => {
  it("lcov and Cobertura XML from c8 (istanbul's reporters) read the same as its istanbul JSON", async () => {
    const repo = makeRepo(null, {
      'package.json': '{ "type": "module" }',
      'src/grade.js': js,
      'test/grade.test.js':
        "import { test } from 'node:test';\nimport assert from 'node:assert';\nimport { grade } from '../src/grade.js';\ntest('b', () => {\n  assert.equal(grade(60), 'B');\n});\n",
    });
    symlinkSync(join(ROOT, 'node_modules'), join(repo, 'node_modules'));
    const out = mkdtempSync(join(tmpdir(), 'fixcycle-cov-report-'));
    await execa(
      join(repo, 'node_modules/.bin/c8'),
      [
        '--reporter=json',
        '--reporter=lcovonly',
        '--reporter=cobertura',
        `--reports-dir=${out}`,
        process.execPath,
        '--test',
      ],
      { cwd: repo },
    );
    const json = await readIstanbulJson(join(out, 'coverage-final.json'), repo, all);
    const lcov = await readLcov(join(out, 'lcov.info'), repo, all);
    const xml = await readCobertura(join(out, 'cobertura-coverage.xml'), repo, all);
    expect(Object.keys(json)).toEqual(['src/grade.js']);
    const expected = summary(json);
    expect(expected['src/grade.js']!.lines).toMatchObject({ 2: true, 3: true, 6: true, 8: false });
    expect(summary(lcov)).toEqual(expected);
    expect(summary(xml)).toEqual(expected);
    const c = changedCoverage(xml, 'src/grade.js', [1, 2, 3, 4, 5, 6, 7, 8]);
    expect(c.uncovered).toEqual([8]);
    expect(c.coveredBranches).toBeLessThan(c.totalBranches);
    // A report folder is read from whichever standard report it holds.
    expect(summary((await readReportDir(out, repo, all))!)).toEqual(expected);
  }, 60_000);

  const PY =
    ([{}, { PYENV_VERSION: 'system' }] as Record<string, string>[]).find(
      (env) =>
        spawnSync('python3', ['-c', 'import pytest, coverage'], { stdio: 'ignore', env: { ...process.env, ...env } })
          .status === 0,
    ) ?? null;
  it.skipIf(!PY)(
    "coverage.py's Cobertura XML and lcov read the same as its JSON, lines and branches",
    async () => {
      const repo = makeRepo(null, {
        'calc.py':
          'def grade(n):\n    if n >= 90:\n        return "A"\n    return "B" if n >= 50 else "F"\n\n\ndef unused():\n    return 1\n',
        'test_calc.py': 'from calc import grade\n\n\ndef test_b():\n    assert grade(60) == "B"\n',
      });
      const env = { ...process.env, ...PY };
      const py = (...args: string[]) => execa('python3', ['-m', 'coverage', ...args], { cwd: repo, env });
      await py('run', '--branch', '--source=.', '-m', 'pytest', '-q');
      await py('json', '-o', 'cov.json');
      await py('xml', '-o', 'cov.xml');
      const json = await readCoveragePyJson(join(repo, 'cov.json'), repo, (f) => f === 'calc.py');
      const xml = await readCobertura(join(repo, 'cov.xml'), repo, (f) => f === 'calc.py');
      expect(summary(json)['calc.py']!.lines).toEqual({ 1: true, 2: true, 3: false, 4: true, 7: true, 8: false });
      expect(summary(json)['calc.py']!.branches).toEqual({ 2: '1/2' });
      expect(summary(xml)).toEqual(summary(json));
      await py('lcov', '-o', 'cov.info');
      expect(summary(await readLcov(join(repo, 'cov.info'), repo, (f) => f === 'calc.py'))['calc.py']!.lines).toEqual(
        summary(json)['calc.py']!.lines,
      );
    },
    60_000,
  );

  it('a missing, empty or garbage report reads as no coverage', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fixcycle-cov-garbage-'));
    await execa(
      'sh',
      ['-c', 'printf "not xml <<" > bad.xml; printf "SF:x\\nDA:zz" > bad.info; printf "{" > bad.json'],
      { cwd: dir },
    );
    expect(await readCobertura(join(dir, 'bad.xml'), dir, all)).toEqual({});
    expect(await readLcov(join(dir, 'bad.info'), dir, all)).toEqual({});
    expect(await readCoveragePyJson(join(dir, 'bad.json'), dir, all)).toEqual({});
    expect(await readLcov(join(dir, 'none.info'), dir, all)).toEqual({});
    expect(await readReportDir(dir, dir, all)).toBeNull();
  });
});
