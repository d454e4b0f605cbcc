import type { Finding } from './finding.js';

/**
 * Which of an L0 round's findings go back to the generator. The project's own linter is reported, never a verdict
 * nor a round sent back: a no-unused-vars on the import of a test that asserts nothing is not why that test goes
 * (its runs are), and a generator told of it drops the file before any run can say so. A finding in the changed
 * code is the project's own (toml's encoder imports numpy inside a method, for users who have it): generation may
 * change tests only, so it is reported too.
 */
export function l0Verdict(
  findings: readonly Finding[],
  tests: readonly string[],
  sources: readonly string[],
): { critical: Finding[]; linted: Finding[]; inChange: Finding[] } {
  const blocking = findings.filter((f) => f.severity === 'critical');
  const ofChange = (f: Finding): boolean => sources.includes(f.file) && !tests.includes(f.file);
  return {
    critical: blocking.filter((f) => f.check !== 'lint' && !ofChange(f)),
    linted: blocking.filter((f) => f.check === 'lint'),
    inChange: blocking.filter((f) => f.check !== 'lint' && ofChange(f)),
  };
}

/** `; the changed code: 1 error(s), reported (toml/encoder.py:273: imports "numpy" ...)`, or nothing. */
export function reportedFindings(whose: string, findings: readonly Finding[]): string {
  if (findings.length === 0) return '';
  const first = findings.slice(0, 2).map((f) => `${f.file}:${f.line}: ${f.message}`);
  return `; ${whose}: ${findings.length} error(s), reported (${first.join('; ')}${findings.length > 2 ? '; ...' : ''})`;
}
