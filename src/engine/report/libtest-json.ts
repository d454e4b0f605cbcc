import type { TestCase } from '../types.js';
import type { ParseOutcome } from './parse-outcome.js';
import { asNumber, asRecord, asString, guarded, parsed, unusable } from './outcome.js';
import { stableDoctestIds, uniquifyIds } from './test-id.js';

// `thread 'tests::adds' (123) panicked at src/lib.rs:9:31:`
const PANIC_AT = /panicked at ([^\s:]+\.rs):\d+:\d+/;

/**
 * Reads libtest's JSON lines (`cargo test -- -Z unstable-options --format json`, `cargo test --format json`):
 * one `suite` started/ok/failed pair per test binary around its `test` events. A test is what libtest counts:
 * `ok` passed, `failed` failed (its captured output is the message), `ignored` skipped; the suites' own
 * `passed`/`failed`/`ignored` are those counts. A suite that started and never ended was cut off.
 */
export function parseLibtestJson(text: string): ParseOutcome {
  return guarded('libtest-json', () => {
    const tests: TestCase[] = [];
    let suites = 0;
    let open = 0;
    for (const line of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
      if (!line.startsWith('{')) continue;
      let event: Record<string, unknown> | undefined;
      try {
        event = asRecord(JSON.parse(line));
      } catch {
        continue;
      }
      const type = asString(event?.type);
      const what = asString(event?.event);
      if (type === 'suite') {
        if (what === 'started') {
          suites++;
          open++;
        } else if (what === 'ok' || what === 'failed') open = Math.max(0, open - 1);
        continue;
      }
      const name = asString(event?.name);
      if (type !== 'test' || !name || what === 'started' || what === undefined) continue;
      const status =
        what === 'ok'
          ? 'passed'
          : what === 'ignored'
            ? 'skipped'
            : what === 'failed' || what === 'timeout'
              ? 'failed'
              : null;
      if (!status) continue;
      const test: TestCase = { id: name, name, status };
      const seconds = asNumber(event?.exec_time);
      if (seconds !== undefined) test.durationMs = seconds * 1000;
      if (status === 'failed') {
        const output = (asString(event?.stdout) ?? asString(event?.message) ?? '').trim();
        test.message = output || (what === 'timeout' ? 'test timed out' : 'test failed');
        const at = PANIC_AT.exec(output);
        if (at) test.file = at[1];
      }
      tests.push(test);
    }
    if (suites === 0 && tests.length === 0)
      return unusable(
        'libtest JSON has no suite or test events; run `cargo test -- -Z unstable-options --format json` and pass its stdout',
      );
    return parsed({
      format: 'libtest-json',
      tests: uniquifyIds(stableDoctestIds(tests)),
      errors: [],
      truncated: open > 0,
    });
  });
}
