import type { CommandResult } from '../process/run-command.js';

/** Where a part of the test script stands around the runner. */
export type PartKind = 'setup' | 'check' | 'after';

/** One part of the test script other than the runner, as it ran (or why it did not). */
export interface PartRun {
  argv: string[];
  kind: PartKind;
  /** null when the part did not run (`skipped` says why). */
  result: CommandResult | null;
  skipped?: string;
}

/** Linters and type checkers: parts that check the code rather than build what the tests load. */
const CHECK_BINS = new Set([
  'xo',
  'eslint',
  'prettier',
  'standard',
  'semistandard',
  'tsd',
  'biome',
  'oxlint',
  'stylelint',
  'tslint',
  'jshint',
  'jscs',
  'dtslint',
  'attw',
  'publint',
  'markdownlint',
  'depcheck',
  'knip',
  'ts-standard',
  'lint-staged',
  'flake8',
  'ruff',
  'mypy',
  'pylint',
  'black',
  'cargo-clippy',
]);
const CHECK_SCRIPT =
  /(^|[:_-])(lint|lints|eslint|format|fmt|prettier|style|check|checks|types?|typecheck|tsd|tsc|dtslint|attw|audit)([:_-]|$)/i;

/**
 * True for a setup part that only checks the code (`xo`, `pnpm lint`, `tsc --noEmit`, `npm run check:types`, `make lint`):
 * it runs with the full suite, not before every re-test, and its failure is a failure rather than a reason
 * the tests could not run. Builds (`npm run build`, `tsc`) run before every run: the tests load what they emit.
 */
export function isCheckPart(argv: string[]): boolean {
  const words = argv.filter((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word));
  const [head, ...rest] = words[0] === 'npx' || words[0] === 'pnpx' || words[0] === 'bunx' ? words.slice(1) : words;
  if (head === undefined) return false;
  const bin = head.split('/').at(-1)!;
  if (CHECK_BINS.has(bin)) return true;
  if (bin === 'tsc' || bin === 'vue-tsc') return rest.includes('--noEmit') || rest.includes('--noemit');
  if (bin === 'npm' || bin === 'yarn' || bin === 'pnpm' || bin === 'bun') {
    const names = rest.filter((word) => !word.startsWith('-'));
    const script = names[0] === 'run' || names[0] === 'run-script' ? names[1] : names[0];
    return script !== undefined && script !== 'test' && CHECK_SCRIPT.test(script);
  }
  // A make target before the tests' one (`test: lint test-node`), named as scripts are.
  if (bin === 'make' || bin === 'gmake') {
    const targets = rest.filter((word) => !word.startsWith('-') && !word.includes('='));
    return targets.length === 1 && CHECK_SCRIPT.test(targets[0]!);
  }
  return false;
}

/** Why a part that ran counts as failing, or null when it passed. */
export function partFailure(part: PartRun): string | null {
  const result = part.result;
  if (!result) return null;
  const cause = result.spawnError
    ? `could not start (${result.spawnError})`
    : result.timedOut
      ? 'timed out'
      : result.signal
        ? `was killed by ${result.signal}`
        : result.exitCode !== 0
          ? `exited ${result.exitCode}`
          : null;
  if (!cause) return null;
  const where = part.kind === 'after' ? 'runs after the tests' : 'runs before the tests';
  const tail = result.outputTail.trim().split('\n').slice(-30).join('\n');
  return `\`${part.argv.join(' ')}\` (the test script ${where}) ${cause}${tail ? `; its last output:\n${tail}` : ''}`;
}

/** True when a command failed because a program it needs is not installed (`pnpm: not found`, exit 127). */
export function isMissingTool(result: CommandResult): boolean {
  if (result.spawnError !== undefined || result.exitCode === 127) return true;
  // A package script whose own command is missing: npm and pnpm relay the shell's exit code 127, yarn 1 says 1.
  return (
    result.exitCode !== 0 &&
    /^(?:sh|bash|\/bin\/sh)(?::\s*\d+)?:\s*\S+:\s*(?:command )?not found\s*$/m.test(result.outputTail)
  );
}
