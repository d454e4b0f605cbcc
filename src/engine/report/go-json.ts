import type { RunError, TestCase } from '../types.js';
import type { ParseOutcome } from './parse-outcome.js';
import { asNumber, asRecord, asString, guarded, parsed, unusable } from './outcome.js';
import { makeTestId, uniquifyIds } from './test-id.js';

interface GoTest {
  pkg: string;
  name: string;
  output: string[];
  action?: 'pass' | 'fail' | 'skip';
  elapsed?: number;
}

interface GoPackage {
  output: string[];
  action?: 'pass' | 'fail' | 'skip';
  /** Set when the package did not build (go 1.24+ `FailedBuild`). */
  failedBuild?: string;
}

// `FAIL <pkg> [build failed]` / `[setup failed]`: printed as plain text inside the -json stream by go before 1.24.
const PLAIN_FAIL = /^FAIL\s+(\S+)\s+\[(build failed|setup failed)\]\s*$/;

/** Reads the event stream of `go test -json` (one JSON object a line, with plain lines mixed in). */
export function parseGoJson(text: string): ParseOutcome {
  return guarded('go-json', () => {
    const tests = new Map<string, GoTest>();
    const packages = new Map<string, GoPackage>();
    const buildOutput = new Map<string, string[]>();
    const errors: RunError[] = [];
    const plain: string[] = [];
    let events = 0;
    for (const line of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
      const event = line.startsWith('{') ? readEvent(line) : undefined;
      if (!event) {
        const failed = PLAIN_FAIL.exec(line.trim());
        if (failed) errors.push({ file: failed[1]!, message: plainFailure(failed[1]!, failed[2]!, plain) });
        else if (line.trim()) plain.push(line);
        continue;
      }
      events += 1;
      const action = asString(event.Action);
      const pkg = asString(event.Package) ?? asString(event.ImportPath) ?? '';
      const output = asString(event.Output);
      if (action === 'build-output') {
        if (output) listOf(buildOutput, pkg).push(output);
        continue;
      }
      const name = asString(event.Test);
      const target = name ? testOf(tests, pkg, name) : packageOf(packages, pkg);
      if (action === 'output' && output !== undefined) target.output.push(output);
      if (action === 'pass' || action === 'fail' || action === 'skip') {
        target.action = action;
        const elapsed = asNumber(event.Elapsed);
        if (name && elapsed !== undefined) (target as GoTest).elapsed = elapsed;
        const failedBuild = asString(event.FailedBuild);
        if (!name && failedBuild) (target as GoPackage).failedBuild = failedBuild;
      }
    }
    if (events === 0 && errors.length === 0) {
      return unusable('go-json report has no `go test -json` events; write one with `go test -json ./... > FILE`');
    }
    return parsed(assemble(tests, packages, buildOutput, errors));
  });
}

function assemble(
  tests: Map<string, GoTest>,
  packages: Map<string, GoPackage>,
  buildOutput: Map<string, string[]>,
  errors: RunError[],
) {
  const groups = groupsOf(tests);
  const results: TestCase[] = [];
  let truncated = false;
  for (const [key, test] of tests) {
    const pkg = packages.get(test.pkg);
    // Every package ends with its own pass/fail event: a test's package without one was cut off.
    if (!pkg?.action) truncated = true;
    // A stream cut off mid-package leaves tests with no result: unknown, not failed.
    if (!test.action && !pkg?.action) continue;
    // A test with subtests is a group: it counts only when it failed on its own (none of its subtests failed).
    const group = groups.get(key);
    if (group && !(test.action === 'fail' && !group.failedChild)) continue;
    results.push(toTestCase(test, pkg));
  }
  const failedPackages = new Set(results.filter((t) => t.status === 'failed').map((t) => t.file));
  for (const [name, pkg] of packages) {
    if (!pkg.action) {
      truncated = true;
      continue;
    }
    if (pkg.action === 'fail' && !failedPackages.has(name) && !errors.some((e) => e.file === name)) {
      const build = pkg.failedBuild ? buildOutput.get(pkg.failedBuild) : undefined;
      const text = (build ?? pkg.output).join('').trim();
      errors.push({
        file: name,
        message: build ? `build failed:\n${text}` : text || 'package failed outside any test',
      });
    }
  }
  return { format: 'go-json', tests: uniquifyIds(results), errors, truncated };
}

/** Tests that have subtests (`TestX` of `TestX/case`), and whether one of those failed. */
function groupsOf(tests: Map<string, GoTest>): Map<string, { failedChild: boolean }> {
  const groups = new Map<string, { failedChild: boolean }>();
  for (const test of tests.values()) {
    let name = test.name;
    for (let slash = name.lastIndexOf('/'); slash > 0; slash = name.lastIndexOf('/')) {
      name = name.slice(0, slash);
      const key = `${test.pkg}\u0000${name}`;
      const group = groups.get(key) ?? { failedChild: false };
      if (test.action === 'fail') group.failedChild = true;
      groups.set(key, group);
    }
  }
  return groups;
}

function toTestCase(test: GoTest, pkg: GoPackage | undefined): TestCase {
  // A test that never finished in a package that did (a panic or a timeout) failed.
  const status = test.action === 'pass' ? 'passed' : test.action === 'skip' ? 'skipped' : 'failed';
  const result: TestCase = { id: makeTestId(test.pkg, [test.name]), name: test.name, file: test.pkg, status };
  if (test.elapsed !== undefined) result.durationMs = Math.round(test.elapsed * 1000);
  if (status === 'failed') {
    const lines = test.output.filter((l) => !/^(=== (RUN|PAUSE|CONT|NAME)|--- FAIL:)/.test(l.trim()));
    const own = lines.join('').trim();
    const text = own || (test.action ? '' : pkg?.output.join('').trim()) || (test.action ? 'failed' : 'did not finish');
    const message =
      text
        .split('\n')
        .find((l) => l.trim())
        ?.trim() ?? text;
    result.message = message;
    if (text.includes('\n')) result.stack = text;
  }
  return result;
}

function plainFailure(pkg: string, what: string, plain: string[]): string {
  // go prints the compiler's lines under a `# <pkg>` header just before.
  const header = plain.findIndex((l) => l.startsWith(`# ${pkg}`));
  const detail =
    header >= 0
      ? plain
          .slice(header + 1, header + 41)
          .join('\n')
          .trim()
      : '';
  return detail ? `${what}:\n${detail}` : what;
}

function readEvent(line: string): Record<string, unknown> | undefined {
  try {
    const value = asRecord(JSON.parse(line));
    return value && typeof value.Action === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

function testOf(tests: Map<string, GoTest>, pkg: string, name: string): GoTest {
  const key = `${pkg}\u0000${name}`;
  let test = tests.get(key);
  if (!test) tests.set(key, (test = { pkg, name, output: [] }));
  return test;
}

function packageOf(packages: Map<string, GoPackage>, pkg: string): GoPackage {
  let entry = packages.get(pkg);
  if (!entry) packages.set(pkg, (entry = { output: [] }));
  return entry;
}

function listOf(map: Map<string, string[]>, key: string): string[] {
  let list = map.get(key);
  if (!list) map.set(key, (list = []));
  return list;
}
