import { coveredKeys, type CoverageData } from './coverage/model.js';
import { coverageSupport, withCoverage } from './coverage/measure.js';
import { readBefore } from './changed-coverage.js';
import { node, type GenContext } from './gen-context.js';
import { checksOf, ownAssertions, selectionOf } from './own-checks.js';
import type { ContextPackage } from './phase-context.js';
import type { Observed } from './quality-observe.js';
import type { Verdicts } from './quality-verdicts.js';
import { widestFirst } from './widest-first.js';

const UNREAD =
  'adds no coverage; kept: what it checks cannot be read from its file (a computed title, a table of cases), so it is no known copy';

/**
 * A test whose verdict waits for the mutant runs, with whether its own coverage run added a line or branch (null:
 * no coverage tool could tell).
 */
export interface Waiting {
  t: Observed;
  addedCoverage: boolean | null;
  /** The changed lines (`<file>:<line>`) its own coverage run ran, when it was measured alone. */
  lines?: ReadonlySet<string>;
}

export interface CoverageJudged {
  waiting: Waiting[];
  /** The `<file>:<line>` keys the new tests' coverage runs reached (where mutants are worth making). */
  reachedByNew: Set<string>;
  /** The suite's coverage before generation (null: not measured). */
  before: CoverageData | null;
  /** Why coverage was not measured, when it was not. */
  note?: string;
}

/**
 * The coverage runs of the new tests passing or failing every run. Kept here: a test failing every run (for the fix
 * loop), one making checks no test kept before it makes, one covering a line or branch the suite and the kept tests
 * do not. Waiting for the mutant runs: a test L0 doubts (whatever it covers: a test that runs lines and checks
 * nothing covers them too), and one that adds no coverage and no check of its own. Nothing is dropped here.
 */
export async function judgeCoverage(
  ctx: GenContext,
  pkg: ContextPackage,
  stable: readonly Observed[],
  all: ReadonlyMap<string, Observed>,
  v: Verdicts,
): Promise<CoverageJudged> {
  const { options } = ctx;
  const root = ctx.repo.root;
  const reachedByNew = new Set<string>();
  const passes = `passes ${options.stabilityRuns} of ${options.stabilityRuns} runs`;
  const failing = `fails all ${options.stabilityRuns} runs: kept for the fix loop (it found a bug, or it is wrong itself)`;
  // Phase 2 ran the same tool: when it found the tool missing where the tests run (coverage.py for another
  // Python), every test here would look as if it covered nothing, so the gate goes on without coverage instead.
  const probed = coverageSupport(ctx.runner, root);
  const support =
    probed.ok && !pkg.coverage.measured && pkg.coverage.reason
      ? { ok: false as const, reason: pkg.coverage.reason }
      : probed;
  if (!support.ok) {
    const note = `coverage not measured: ${support.reason}; the coverage checks did not run`;
    const waiting: Waiting[] = [];
    for (const t of stable)
      if (t.statuses[0] === 'failed') v.keep(t, failing);
      else if (v.hintsOf(t).length > 0) waiting.push({ t, addedCoverage: null });
      else v.keep(t, passes);
    ctx.emit({ type: 'gen-coverage', files: [], measured: false, reason: support.reason });
    return { waiting, reachedByNew, before: null, note };
  }
  const before = await readBefore(ctx.session.paths.dir);
  const sources = new Set(pkg.changed_files.map((f) => f.file));
  const covered = coveredKeys(before ?? {});
  const assertionsKept = new Set<string>();
  const opts = { cwd: root, timeoutMs: options.testTimeoutMs, signal: ctx.signal };
  const coverageOf = async (selection: { files: string[]; names: string[] }): Promise<Set<string>> => {
    const { coverage } = await withCoverage(ctx.runner, root, [], async (runner) =>
      runner.runSubset?.(opts, selection),
    );
    const keys = coveredKeys(coverage);
    for (const k of keys) reachedByNew.add(k);
    return keys;
  };
  const changedLines = new Set(pkg.changed_files.flatMap((f) => f.lines.map((l) => `${f.file}:${l}`)));
  // `<file>:<line>` or a branch's `<file>:<line>:<column>:branch`.
  const onChangedLine = (k: string): boolean =>
    changedLines.has(k.endsWith(':branch') ? k.split(':').slice(0, -2).join(':') : k);
  const inChanged = (keys: readonly string[]): number =>
    keys.filter((k) => !k.endsWith(':branch') && sources.has(k.slice(0, k.lastIndexOf(':')))).length;
  // A test with assertions no test before it makes (or failing every run) is kept whatever it covers. A new file
  // whose every test is such a test gets one coverage run with the other such files, whole (selecting tests by
  // name can take in others: go's -run on a subtest, a title shared by two tests); any other test gets a run of
  // its own, to show whether it covers anything new.
  // A test whose checks cannot be read from its file (a title made at run time, a table of cases) is no known
  // copy: kept as such a test is, its file measured whole (a loop of 46 cases is one run, not 46).
  const byAssertions: Observed[] = [];
  const unread = new Set<string>();
  const candidates: Observed[] = [];
  const seen = new Set<string>();
  for (const t of stable) {
    const own = ownAssertions(root, t, seen);
    for (const a of checksOf(root, t)) seen.add(a);
    if (own === null) unread.add(t.id);
    // A test L0 doubts gets a coverage run of its own: whether it checks anything is the runs' to say.
    if (((own === null || own.length > 0) && v.hintsOf(t).length === 0) || t.statuses[0] === 'failed')
      byAssertions.push(t);
    else candidates.push(t);
  }
  const wholeFiles = new Set(
    byAssertions
      .map((t) => t.file)
      .filter((f) => [...all.values()].every((o) => o.file !== f || byAssertions.includes(o))),
  );
  const keepByAssertions = (group: readonly Observed[], mine: Set<string>): void => {
    const fresh = [...mine].filter((k) => !covered.has(k));
    // Said of a group only when the group as a whole covers nothing new: each of its tests then does not either
    // (a run that measured nothing at all says nothing).
    const nothingNew = mine.size > 0 && fresh.length === 0;
    for (const k of mine) covered.add(k);
    for (const t of group) {
      for (const a of checksOf(root, t)) assertionsKept.add(a);
      const note =
        t.statuses[0] === 'failed'
          ? failing
          : !nothingNew
            ? passes
            : unread.has(t.id)
              ? UNREAD
              : 'adds no coverage; kept for its own assertions';
      v.keep(t, note, group.length === 1 ? inChanged(fresh) : undefined);
    }
  };
  const whole = byAssertions.filter((t) => wholeFiles.has(t.file));
  if (whole.length > 0) {
    node(ctx, 'IMPL-001.5', 'running', `coverage of ${wholeFiles.size} new file(s), whole`);
    // go test runs a package, not a file: the other new files' tests would run too, and one that panics ends the
    // test binary before it writes its cover profile (nothing measured). Their tests by name instead.
    const names = ctx.runner.name === 'go' ? [...new Set(whole.map((t) => t.name.split('/')[0]!))] : [];
    keepByAssertions(whole, await coverageOf({ files: [...wholeFiles], names }));
  }
  for (const t of byAssertions.filter((o) => !wholeFiles.has(o.file))) {
    node(ctx, 'IMPL-001.5', 'running', `coverage of "${t.name}"`);
    keepByAssertions([t], await coverageOf(selectionOf(ctx.runner.name, t)));
  }
  // The tests L0 doubts come last, measured against the suite and the tests kept without doubt, and against each
  // other widest first: a doubted test adds coverage only with lines no wider doubted test runs (a call that logs
  // its result runs what the real tests beside it run, and adds nothing), so the mutant runs decide the rest.
  const undoubtedFirst = [...candidates].sort(
    (a, b) => Number(v.hintsOf(a).length > 0) - Number(v.hintsOf(b).length > 0),
  );
  const waiting: Waiting[] = [];
  const doubted: { t: Observed; mine: Set<string> }[] = [];
  const ownLines = new Map<Observed, Set<string>>();
  for (const t of undoubtedFirst) {
    node(ctx, 'IMPL-001.5', 'running', `coverage of "${t.name}"`);
    const mine = await coverageOf(selectionOf(ctx.runner.name, t));
    const added = [...mine].filter((k) => !covered.has(k));
    if (v.hintsOf(t).length > 0) {
      // What a doubted test runs outside the change (a `t.Log(got)` formatting a value) is nothing the change can
      // break: only the changed lines it runs count as coverage it adds.
      doubted.push({ t, mine: new Set([...mine].filter(onChangedLine)) });
      ownLines.set(t, new Set([...mine].filter((k) => !k.endsWith(':branch') && onChangedLine(k))));
      continue;
    }
    if (added.length > 0) {
      for (const k of mine) covered.add(k);
      for (const a of checksOf(root, t)) assertionsKept.add(a);
      v.keep(t, passes, inChanged(added));
      continue;
    }
    // No new line or branch, yet its own checks: a test pinning other values of the same code is no duplicate.
    const own = ownAssertions(root, t, assertionsKept);
    if (own && own.length > 0) {
      for (const a of own) assertionsKept.add(a);
      v.keep(t, `adds no coverage; kept for its own assertions (${own.length} no kept test makes)`, 0);
    } else if (own === null) v.keep(t, UNREAD, 0);
    else waiting.push({ t, addedCoverage: false });
  }
  waiting.push(...widestFirst(doubted, covered).map((w) => ({ ...w, lines: ownLines.get(w.t)! })));
  return { waiting, reachedByNew, before };
}
