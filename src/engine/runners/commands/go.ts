import { dirname, join } from 'node:path';
import type { RunnerCall } from '../analyse-command.js';
import { anyOf, keepOptions, optionName, splitArgs } from '../args.js';
import type { Invocation, RunnerCommands } from '../invocation.js';

const VALUE_FLAGS = new Set([
  '-run',
  '-count',
  '-timeout',
  '-tags',
  '-p',
  '-parallel',
  '-coverprofile',
  '-bench',
  '-benchtime',
  '-cpu',
  '-covermode',
  '-coverpkg',
  '-exec',
  '-o',
  '-skip',
  '-shuffle',
  '-ldflags',
  '-gcflags',
  '-mod',
  '-C',
  '-vet',
  '-list',
]);

// What says which tests run, how they report or what they write, none of which `go test -list` wants; every other
// flag the user wrote (`-vet=off`, `-tags`, `-mod`, `-exec`...) decides whether and how the package builds.
const NOT_FOR_LIST = [
  '-json',
  '-v',
  '-run',
  '-skip',
  '-list',
  '-count',
  '-bench',
  '-benchtime',
  '-benchmem',
  '-cover',
  '-covermode',
  '-coverpkg',
  '-coverprofile',
  '-o',
  '-c',
  '-shuffle',
  '-failfast',
];

/**
 * The flags of a `go test` command line (the runner's full invocation) that gen's own `go test -list` must keep:
 * the package built as the user's command builds it (`go test -vet=off` where go vet refuses one of its files).
 */
export function goBuildFlags(argv: readonly string[]): string[] {
  const verb = argv.indexOf('test');
  const { options } = splitArgs(argv.slice(verb + 1), VALUE_FLAGS);
  return keepOptions(options, { names: NOT_FOR_LIST.flatMap((name) => [name, `-${name}`]) });
}

/** `go test -json`: the event stream on stdout is the report; the screen and the log get each event's text. */
export function goCommands(call: RunnerCall): RunnerCommands {
  const { options, positionals } = splitArgs(call.args, VALUE_FLAGS);
  const own = keepOptions(options, { names: ['-json', '-v'] });
  const narrow = keepOptions(options, { names: ['-json', '-v', '-run', '-coverprofile', '-cover'] });
  // go test replays a cached pass when the test binary, the environment it read and the module's files it opened
  // are unchanged. A full run is the user's command: its cached passes are the ones they see, and a failure is
  // never cached. A subset runs named tests to see them run again (a flaky re-run, gen's stability runs, a
  // mutant): a replay would answer nothing (gen's 5 stability runs saw a flaky test pass 5 times from the cache),
  // so those run the tests (-count=1, go's way to say so). The user's own -count stays in both.
  const userCount = options.some((o) => /^--?count$/.test(optionName(o)));
  const build = (reportDir: string, argv: string[], fresh = false): Invocation => ({
    argv: [...call.launcher, '-json', ...(fresh && !userCount ? ['-count=1'] : []), ...argv],
    env: call.env,
    setup: call.setup,
    report: { file: join(reportDir, 'go-test.json'), format: 'go-json', fromStdout: true },
  });
  return {
    runner: 'go',
    reportSource: 'report',
    reportDetail:
      'the go test -json event stream on stdout; counts are tests and subtests without subtests of their own (a parent passes or fails with them)',
    full: (dir) => build(dir, [...own, ...(positionals.length > 0 ? positionals : ['./...'])]),
    subset: (dir, { files, names }) => {
      // A selection names test files, package folders or (from a report) import paths; go test takes the last two.
      const packages = [...new Set(files.map(goPackageOf))];
      // -run takes one pattern per level: one subtest alone (gen measures a test's coverage so) is `^TestX$/^case$`;
      // several narrow to their top-level tests.
      if (names.length === 1 && names[0]!.includes('/'))
        return build(
          dir,
          [
            ...narrow,
            '-run',
            names[0]!
              .split('/')
              .map((part) => `^${anyOf([part])}$`)
              .join('/'),
            ...packages,
          ],
          true,
        );
      const tests = [...new Set(names.map((name) => name.split('/')[0]!))];
      return build(dir, [...narrow, ...(tests.length > 0 ? ['-run', `^(${anyOf(tests)})$`] : []), ...packages], true);
    },
    related: () => null,
    displayLine: (line, stream) => (stream === 'stdout' ? goEventText(line) : line),
    outputErrors: goBuildFailures,
  };
}

function goPackageOf(entry: string): string {
  if (entry.endsWith('.go')) entry = dirname(entry);
  if (entry === '.' || entry.startsWith('./') || entry.startsWith('../') || entry.startsWith('/')) return entry;
  // An import path has a dot in its first element (example.com/x); a bare folder does not.
  return /^[^/]*\./.test(entry) ? entry : `./${entry}`;
}

/**
 * Packages that did not build: before Go 1.24 the compiler's errors and `FAIL <pkg> [build failed]` go to
 * stderr, outside the -json stream, under a `# <pkg>` header.
 */
export function goBuildFailures(output: string): { message: string; file: string }[] {
  const details = new Map<string, string[]>();
  const failures: { message: string; file: string }[] = [];
  let current: string[] | null = null;
  for (const line of output.split('\n')) {
    const header = /^# (\S+)/.exec(line);
    if (header) {
      current = [];
      details.set(header[1]!, current);
      continue;
    }
    const fail = /^FAIL\s+(\S+)\s+\[(build|setup) failed\]\s*$/.exec(line);
    if (fail) {
      const pkg = fail[1]!;
      const text = details.get(pkg)?.join('\n').trim();
      failures.push({
        file: pkg,
        message: `package ${pkg} did not ${fail[2] === 'build' ? 'build' : 'set up'}${text ? `:\n${text}` : ''}`,
      });
      current = null;
      continue;
    }
    if (current && /^\S.*:\d+:\d+: /.test(line)) current.push(line);
  }
  return failures;
}

/** The text a `go test -json` event carries, or null for events without output (run, pass...). */
function goEventText(line: string): string | null {
  if (!line.startsWith('{')) return line;
  try {
    const event = JSON.parse(line) as { Action?: string; Output?: string };
    if (typeof event.Output !== 'string') return null;
    return event.Output.replace(/\n$/, '');
  } catch {
    return line;
  }
}
