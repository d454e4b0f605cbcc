import { join } from 'node:path';
import { SKIPPED_SUBTESTS_PROPERTY } from '../../report/junit-subtests.js';

/**
 * pytest's JUnit report writes a skipped subtest (unittest's `skipTest` inside `subTest`, the `subtests` fixture)
 * exactly as it writes a test skipped whole: a `<skipped>` in the test's case. Only pytest's own reports tell
 * them apart (a `SubtestReport`; pytest-subtests' `SubTestReport` before pytest 9), so this plugin counts each
 * test's skipped subtests and gives the count to the JUnit report as a property of the test's case, through the
 * test's last report (`user_properties`, which the JUnit writer reads when it closes the case). It runs where the
 * JUnit report is written (xdist's workers send their reports there).
 */
const SOURCE = `# Written by fixcycle for one test run: marks how many of a test's <skipped> in the JUnit report are its subtests'.
import collections

import pytest

_skipped = collections.Counter()


# First, so the JUnit writer finds the count on the test's last report.
@pytest.hookimpl(tryfirst=True)
def pytest_runtest_logreport(report):
    if type(report).__name__ in ("SubtestReport", "SubTestReport"):
        if report.skipped:
            _skipped[report.nodeid] += 1
    elif report.when == "teardown" and _skipped[report.nodeid]:
        count = _skipped.pop(report.nodeid)
        report.user_properties = [*report.user_properties, (${JSON.stringify(SKIPPED_SUBTESTS_PROPERTY)}, count)]
`;

/** fixcycle's pytest plugin as a file in the run's report folder, which fixcycle's pytest launcher loads. */
export function pytestSubtestsPlugin(reportDir: string): { path: string; content: string } {
  return { path: join(reportDir, 'fixcycle_subtests.py'), content: SOURCE };
}
