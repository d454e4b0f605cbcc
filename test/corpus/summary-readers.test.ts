// The corpus records the runner's own counts with scripts/corpus/summary.mjs and compares fixcycle's with
// them. Where a runner prints no total in the unit counted (node-tap, go test), both sides must read its
// output in the same unit: these are real outputs (test/fixtures/reports/README.md says how each was made).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseReport, type ReportFormat } from '../../src/engine/report/index.js';
import { readReport } from '../report/fixture.js';
import { missingTool } from '../runners/helpers/fixtures.js';

type Summary = { unit: string; passed: number; failed: number; skipped?: number } | null;
const { readSummary } = (await import(
  pathToFileURL(fileURLToPath(new URL('../../scripts/corpus/summary.mjs', import.meta.url))).href
)) as {
  readSummary(runner: string, text: string): Summary;
};

function fixcycleCounts(path: string, format: ReportFormat): { passed: number; failed: number; skipped: number } {
  const outcome = parseReport(readReport(path), format, { rootDir: '/tmp/rr' });
  if (!outcome.ok) throw new Error(outcome.error);
  const out = { passed: 0, failed: 0, skipped: 0 };
  for (const test of outcome.result.tests) out[test.status]++;
  return out;
}

describe("the corpus's reading of a runner's own counts", () => {
  it.each(['node-tap/tap12-mixed.tap', 'node-tap/tap16-mixed.tap'])(
    "node-tap (%s): each file's top-level subtests, as fixcycle counts them",
    (path) => {
      const own = readSummary('tap', readReport(path));
      expect(own).not.toBeNull();
      expect({ passed: own!.passed, failed: own!.failed, skipped: own!.skipped }).toEqual(
        fixcycleCounts(path, 'node-tap'),
      );
      // tap's own plan per file says how many there are.
      const plans = [...readReport(path).matchAll(/^ {4}1\.\.(\d+)$/gm)].reduce((n, m) => n + Number(m[1]), 0);
      expect(own!.passed + own!.failed + own!.skipped!).toBe(plans);
    },
  );

  it('go test -json: tests without subtests of their own, so a failing subtest counts once, as fixcycle counts', () => {
    const text = readReport('go/mixed.jsonl');
    const own = readSummary('go', text);
    expect(own).not.toBeNull();
    expect({ passed: own!.passed, failed: own!.failed, skipped: own!.skipped }).toEqual(
      fixcycleCounts('go/mixed.jsonl', 'go-json'),
    );
    // Every fail action of a parent has a failing subtest below it: counting actions would count it twice.
    const failActions = text.split('\n').filter((line) => /"Action":"fail"/.test(line) && /"Test":/.test(line)).length;
    expect(own!.failed).toBeLessThan(failActions);
  });
});

const noPytest = missingTool(['python3', ['-m', 'pytest', '--version']]);

describe.skipIf(noPytest !== null)(
  `the corpus's reading of pytest's closing line${noPytest ? ` (${noPytest})` : ''}`,
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'fixcycle-pytest-summary-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const pytest = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      const r = spawnSync('python3', ['-m', 'pytest', '-p', 'no:cacheprovider', name], { cwd: dir, encoding: 'utf8' });
      return readSummary('pytest', r.stdout + r.stderr);
    };

    it('counts a file whose every test skips (parametrized over data it does not find) as tests that ran', () => {
      expect(
        pytest(
          'test_empty_params.py',
          'import pytest\n\n@pytest.mark.parametrize("case", [])\ndef test_case(case):\n    assert case\n',
        ),
      ).toMatchObject({ passed: 0, failed: 0, skipped: 1 });
    });

    it('reads nothing from a file that does not collect', () => {
      expect(
        pytest('test_broken_import.py', 'from nowhere import thing\n\ndef test_thing():\n    assert thing\n'),
      ).toBeNull();
    });
  },
);
