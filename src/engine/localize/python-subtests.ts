import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FAILED_SUBTEST } from '../types.js';

/** How a unittest subtest's coverage context is named: its test's context (coverage.py's `test_function`), then this. */
export const SUBTEST_MARK = '#subtest-';

// Appended to the run's sitecustomize (gen/coverage/python.ts), after coverage.py started. One test function that
// loops over data cases in `self.subTest` is one coverage.py context, so what any case runs is "run by the failing
// test": each subtest of a failing test (the names in `subtest-tests`) gets a context of its own, and those that
// fail or skip are written down. A passing test's subtests stay its own unit: splitting them would cost a context
// switch each (coverage.py writes its data at each) for no failing unit. pytest before 9 does not report
// subtests (its unittest result has no addSubTest) and ends the test at the first failing or skipping case; here
// the subtest then ends as unittest's own runner ends it, and the next case runs.
const PYTHON = `
# Added by fixcycle's localization: a coverage.py context per unittest subtest.
def _fixcycle_subtest_contexts():
    try:
        import contextlib, unittest, coverage
    except ImportError:
        return
    cov = coverage.Coverage.current()
    if cov is None:
        return
    log = os.path.join(_here, "subtests")
    with open(os.path.join(_here, "subtest-tests")) as f:
        failing = set(f.read().split())
    original = unittest.TestCase.subTest
    counts = {}
    stack = []

    def context_of(test):
        method = getattr(test, test._testMethodName, None)
        func = getattr(method, "__func__", None)
        if func is not None:
            return func.__module__ + "." + func.__qualname__
        return type(test).__module__ + "." + type(test).__name__ + "." + test._testMethodName

    def note(outcome, label):
        with open(log, "a") as f:
            f.write(outcome + " " + label + "\\n")

    def subTest(self, *args, **params):
        if self._testMethodName not in failing:
            return original(self, *args, **params)
        return split(self, *args, **params)

    @contextlib.contextmanager
    def split(self, *args, **params):
        base = context_of(self)
        counts[base] = counts.get(base, 0) + 1
        label = base + "${SUBTEST_MARK}" + str(counts[base])
        outer = stack[-1] if stack else base
        reported = getattr(getattr(self, "_outcome", None), "result_supports_subtests", False)
        with original(self, *args, **params):
            stack.append(label)
            cov.switch_context(label)
            try:
                yield
            except unittest.SkipTest:
                note("skipped", label)
                if reported:
                    raise
            except Exception:
                note("failed", label)
                if reported:
                    raise
            finally:
                stack.pop()
                cov.switch_context(outer)

    unittest.TestCase.subTest = subTest


_fixcycle_subtest_contexts()
`;

/**
 * Gives each unittest subtest of the failing tests (their ids) its own coverage context (`py`: the folder
 * preparePython wrote).
 */
export function withSubtestContexts(py: string, failingIds: readonly string[]): void {
  writeFileSync(join(py, 'subtest-tests'), [...new Set(failingIds.map(testFunctionOf))].join('\n') + '\n');
  appendFileSync(join(py, 'sitecustomize.py'), PYTHON);
}

/**
 * A pytest failure's test function: `tests/test_x.py::TestX::test_y[1]` and pytest 9's subtest failure
 * `tests/test_x.py::TestX::test_y > failed subtest 2` -> test_y.
 */
export function testFunctionOf(id: string): string {
  const bare = id.replace(new RegExp(` > ${FAILED_SUBTEST} \\d+$`), '').replace(/\[.*\]$/, '');
  return (
    bare
      .split(/::|\.| > /)
      .filter(Boolean)
      .at(-1) ?? bare
  );
}

/** The subtests that failed or skipped in the run, by context. */
export function subtestOutcomes(py: string): Map<string, 'failed' | 'skipped'> {
  const log = join(py, 'subtests');
  const out = new Map<string, 'failed' | 'skipped'>();
  if (!existsSync(log)) return out;
  for (const line of readFileSync(log, 'utf8').split('\n')) {
    const [outcome, label] = [line.slice(0, line.indexOf(' ')), line.slice(line.indexOf(' ') + 1)];
    if ((outcome === 'failed' || outcome === 'skipped') && label) out.set(label, outcome);
  }
  return out;
}
