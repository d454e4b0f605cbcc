import { FAILED_SUBTEST, type TestCase } from '../types.js';

/**
 * The test a reported case belongs to: the id before the last ` > ` (tape's `# test` of an assertion). Not the
 * file: tape names it only for a failing assertion (from its stack), so the same test's cases would part.
 */
function groupOf(test: { id: string }): string | null {
  const cut = test.id.lastIndexOf(' > ');
  return cut > 0 ? test.id.slice(0, cut) : null;
}

/**
 * Whether a baseline test that a full run no longer reports is accounted for: its group (the same parent
 * name) still ran in this run and nothing in it failed. Assertion-level runners (tape) report
 * assertions that exist only while a test fails (`plan != count`, the assertions after a crash); once the
 * fix lands they are gone while the test they belonged to passes whole. A test deleted with its whole group,
 * or one whose group still fails, still counts as failing (editing test files is the guard's to refuse).
 */
export function vanishedWithPassingGroup(
  reported: readonly TestCase[],
): (test: { id: string; file?: string }) => boolean {
  const ran = new Map<string, boolean>();
  const passed = new Set<string>();
  for (const test of reported) {
    if (test.status === 'passed') passed.add(test.id);
    const group = groupOf(test);
    if (group === null) continue;
    ran.set(group, (ran.get(group) ?? true) && test.status !== 'failed');
  }
  return (test) => {
    const group = groupOf(test);
    if (group === null) return false;
    // pytest's failed subtests (`<test> > failed subtest 2`) exist only while they fail: gone once their test passes.
    if (test.id.startsWith(`${group} > ${FAILED_SUBTEST} `)) return passed.has(group) && ran.get(group) !== false;
    return ran.get(group) === true;
  };
}
