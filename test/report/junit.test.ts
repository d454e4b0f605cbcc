import { describe, expect, it } from 'vitest';
import { parseReport, summarizeResult } from '../../src/engine/report/index.js';
import type { NormalizedResult } from '../../src/engine/types.js';

function junit(xml: string): NormalizedResult {
  const outcome = parseReport(xml, 'junit');
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome.result;
}

const counts = (result: NormalizedResult) => {
  const { passed, failed, skipped, errors, truncated, ok } = summarizeResult(result);
  return { passed, failed, skipped, errors, truncated, ok };
};

describe('JUnit XML', () => {
  it('reads a bare <testsuite> root as well as <testsuites>', () => {
    const result = junit('<testsuite name="s"><testcase classname="a.B" name="one" time="0.25"/></testsuite>');
    expect(result.tests).toEqual([{ id: 'a.B::s > one', name: 'one', status: 'passed', durationMs: 250 }]);
  });

  it('tells <failure>, <error> and <skipped> apart and ignores system-out', () => {
    const result = junit(`<testsuites><testsuite name="s">
      <testcase name="fails"><failure message="expected 1 to be 2" type="AssertionError">AssertionError: expected 1 to be 2
    at x (a.js:1:1)</failure><system-out>noise</system-out></testcase>
      <testcase name="errors"><error message="boom" type="TypeError">TypeError: boom</error></testcase>
      <testcase name="skips"><skipped message="later"/></testcase>
      <testcase name="passes"><system-out>printed &lt;stuff&gt;</system-out><system-err>warn</system-err></testcase>
    </testsuite></testsuites>`);
    expect(result.tests.map((t) => [t.name, t.status, t.message])).toEqual([
      ['fails', 'failed', 'expected 1 to be 2'],
      ['errors', 'failed', 'boom'],
      ['skips', 'skipped', undefined],
      ['passes', 'passed', undefined],
    ]);
    expect(result.tests[0]!.stack).toContain('at x (a.js:1:1)');
  });

  it('walks nested suites into the id path', () => {
    const result = junit(
      '<testsuites><testsuite name="outer"><testsuite name="inner"><testcase name="deep"/></testsuite></testsuite></testsuites>',
    );
    expect(result.tests[0]!.id).toBe('outer > inner > deep');
  });

  it('takes the file from the test case, or else its suite, and makes it relative to the root', () => {
    const result = parseReport(
      '<testsuites><testsuite name="/repo/test/a.test.ts" file="/repo/test/a.test.ts"><testcase name="x" classname="/repo/test/a.test.ts"/></testsuite><testsuite name="s"><testcase name="y" file="/repo/test/b.test.ts"/></testsuite></testsuites>',
      'junit',
      { rootDir: '/repo' },
    );
    expect(outcomeTests(outcomeOk(result))).toEqual([
      ['test/a.test.ts::x', 'test/a.test.ts'],
      ['test/b.test.ts::s > y', 'test/b.test.ts'],
    ]);
  });

  it('counts an <error> right inside a suite, or a suite that declares errors and has no cases, as errors outside tests', () => {
    const result = junit(`<testsuites>
      <testsuite name="tests/test_x.py" errors="1" tests="0"><error message="collection failure">ImportError: no module x</error></testsuite>
      <testsuite name="crashed" errors="2" tests="0"></testsuite>
      <testsuite name="fine" tests="1"><testcase name="ok"/></testsuite>
    </testsuites>`);
    expect(result.errors).toEqual([
      { message: 'collection failure', file: 'tests/test_x.py' },
      { message: 'suite "crashed" reports 2 error(s) and no test cases', file: 'crashed' },
    ]);
    expect(counts(result)).toMatchObject({ passed: 1, errors: 2, ok: false });
  });

  it('reads every document of a concatenated stream (cargo writes one per test binary)', () => {
    const doc = (name: string, body: string) =>
      `<?xml version="1.0" encoding="UTF-8"?><testsuites><testsuite name="test">${body}</testsuite></testsuites>\n`;
    const result = junit(
      doc('a', '<testcase classname="tests" name="one"/>') +
        doc('b', '<testcase classname="it" name="two"><failure type="assert"/></testcase>'),
    );
    expect(result.tests.map((t) => [t.id, t.status])).toEqual([
      ['tests::one', 'passed'],
      ['it::two', 'failed'],
    ]);
  });

  it('marks a cut-off document truncated and keeps the test cases that were whole', () => {
    const whole =
      '<?xml version="1.0"?><testsuites><testsuite name="s"><testcase name="a"/><testcase name="b"><failure message="x">long text</failure></testcase><testcase name="c"/></testsuite></testsuites>';
    const cut = junit(whole.slice(0, whole.indexOf('<testcase name="c"') + 12));
    expect(cut.truncated).toBe(true);
    expect(cut.tests.map((t) => t.name)).toEqual(['a', 'b']);
    expect(counts(cut).ok).toBe(false);
    expect(junit(whole).truncated).toBe(false);
  });

  it('reads <testsuites/> as a whole report with no tests, which is not ok', () => {
    expect(counts(junit('<?xml version="1.0"?>\n<testsuites/>\n'))).toEqual({
      passed: 0,
      failed: 0,
      skipped: 0,
      errors: 0,
      truncated: false,
      ok: false,
    });
  });

  it('keeps names that look like numbers or booleans as written', () => {
    expect(
      junit(
        '<testsuite name="s"><testcase name="1e3"/><testcase name="true"/><testcase name=" padded "/></testsuite>',
      ).tests.map((t) => t.name),
    ).toEqual(['1e3', 'true', ' padded ']);
  });

  it.each([
    ['an empty file', '', /empty/],
    [
      'XML that is no JUnit',
      '<?xml version="1.0"?><project><name>x</name></project>',
      /no <testsuites> or <testsuite> root/,
    ],
    [
      'a document cut before any test case',
      '<?xml version="1.0"?><testsuites><testsu',
      /cut off before its first test case/,
    ],
    [
      'XML with an unclosed quote',
      '<testsuites><testsuite name="a><testcase name="x"/></testsuite></testsuites>',
      /not well-formed XML/,
    ],
  ])('refuses %s with a one-line reason', (_what, xml, reason) => {
    const outcome = parseReport(xml, 'junit');
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error).toMatch(reason);
      expect(outcome.error).not.toContain('\n');
    }
  });
});

function outcomeOk(outcome: ReturnType<typeof parseReport>): NormalizedResult {
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome.result;
}

function outcomeTests(result: NormalizedResult): [string, string | undefined][] {
  return result.tests.map((t) => [t.id, t.file]);
}
