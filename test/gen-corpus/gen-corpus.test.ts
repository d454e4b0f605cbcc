// The quick projects of the generation corpus (test/gen-corpus/projects.json, `"quick": true`): published projects
// re-created from the npm registry or Debian into the gen-corpus cache, `fixcycle gen` run on each with the scripted
// generator writing the removed test file back beside the menu of bad generations. The full corpus is
// `npm run gen-corpus`. Skips, saying why, when the cache cannot be built here or a project's tools are missing.
import { existsSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

/** Where a gate still falls short on this project (gencorpus-findings.md): what the run is expected to show until it is fixed. */
interface Known {
  wrongBad?: string[];
  realKeptMin?: number;
  exit?: number;
  baselineDiffers?: boolean;
  why: string;
}
interface Entry {
  name: string;
  runner: string;
  family: string;
  quick?: boolean;
  gen: { lang: string };
  team?: { l2: string };
  known?: Known;
}
interface Bad {
  kind: string;
  rejected: boolean;
  right: boolean;
  committed: boolean;
  by: string[];
  /** Set where the kind's premise does not hold on this machine (see scripts/gen-corpus/inspect.mjs). */
  notMeasurable?: string;
}
interface Row {
  real: { total: number; committed: number; dropped: string[]; reasons: string[] };
  bad: Bad[];
  broken: { file: string; problem: string }[];
  bare: { summary: { passed: number; failed: number } | null };
  gen: {
    exit: number | null;
    reason: string | null;
    coverage: { measured: boolean; reason: string | null } | null;
    baseline: { passed: number; failed: number } | null;
  };
}
interface TeamRow {
  exit: number | null;
  stderr: string;
  tasks: { id: string; status: string; error: string }[];
  realBack: Record<string, boolean>;
  broken: { file: string; problem: string }[];
}
interface Modules {
  prepare(entry: Entry): Promise<string>;
  runGen(entry: Entry): Promise<Row>;
  runTeam(entry: Entry): Promise<TeamRow>;
}

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const entries = (JSON.parse(readFileSync(here('./projects.json'), 'utf8')) as Entry[]).filter((e) => e.quick);

/** What a project needs beyond node: Debian's pytest and coverage.py for Python, go for Go. */
function missingTool(entry: Entry): string | null {
  if (entry.gen.lang === 'py') {
    if (!existsSync('/usr/bin/python3')) return '/usr/bin/python3';
    try {
      execFileSync('/usr/bin/python3', ['-c', 'import pytest, coverage'], { stdio: 'ignore' });
    } catch {
      return "pytest and coverage.py for /usr/bin/python3 (Debian's python3-pytest, python3-coverage)";
    }
  }
  if (entry.gen.lang === 'go') {
    try {
      execFileSync('go', ['version'], { stdio: 'ignore' });
    } catch {
      return 'go';
    }
  }
  return null;
}

describe('fixcycle gen on the generation corpus (quick projects)', () => {
  let modules: Modules;
  const unavailable = new Map<string, string>();

  beforeAll(async () => {
    const prepareModule = (await import(pathToFileURL(here('../../scripts/gen-corpus/prepare.mjs')).href)) as Pick<
      Modules,
      'prepare'
    >;
    const runModule = (await import(pathToFileURL(here('../../scripts/gen-corpus/run-project.mjs')).href)) as Pick<
      Modules,
      'runGen'
    >;
    const teamModule = (await import(pathToFileURL(here('../../scripts/gen-corpus/run-team.mjs')).href)) as Pick<
      Modules,
      'runTeam'
    >;
    modules = { prepare: prepareModule.prepare, runGen: runModule.runGen, runTeam: teamModule.runTeam };
    for (const entry of entries) {
      const missing = missingTool(entry);
      if (missing) {
        unavailable.set(entry.name, `${missing} is not installed`);
        continue;
      }
      try {
        await modules.prepare(entry);
      } catch (error) {
        unavailable.set(
          entry.name,
          `the cache cannot be built here (no registry?): ${String((error as Error).message).split('\n')[0]}`,
        );
      }
    }
    for (const [name, why] of unavailable) console.warn(`skipping gen-corpus project ${name}: ${why}`);
  }, 1_800_000);

  it('holds quick projects in JS and Python, on different runners', () => {
    expect(new Set(entries.map((e) => e.runner)).size).toBeGreaterThanOrEqual(2);
    expect(new Set(entries.map((e) => e.gen.lang))).toEqual(new Set(['js', 'py']));
  });

  for (const entry of entries) {
    it(`${entry.name} (${entry.family}): every bad generation rejected for the right reason, the real tests committed, gen exits 0 on the published baseline`, async (ctx) => {
      if (unavailable.has(entry.name)) ctx.skip(`${entry.name}: ${unavailable.get(entry.name)}`);
      const row = await modules.runGen(entry);
      const known: Known = entry.known ?? { why: '' };
      // A bad generation whose premise does not hold here (its "hallucinated" package is installed) is no longer bad.
      const wrong = row.bad.filter((b) => !b.notMeasurable && !(b.rejected && b.right && !b.committed));
      const keptGood = row.bad.some((b) => b.notMeasurable && b.committed);
      // A gap that closes fails this too: then the entry's `known` is out of date and should go.
      expect(
        wrong.map((b) => b.kind),
        `bad generations not rejected with the right reason: ${wrong.map((b) => `${b.kind}: ${b.committed ? 'committed; ' : ''}${b.by[0] ?? 'never rejected'}`).join('; ')} (known: ${known.why})`,
      ).toEqual(known.wrongBad ?? []);
      expect(
        row.real.committed / row.real.total,
        `real tests dropped: ${row.real.dropped.join(', ')} (${row.real.reasons.slice(0, 3).join('; ')})`,
      ).toBeGreaterThanOrEqual(known.realKeptMin ?? 0.9);
      expect(row.broken, 'committed files that fail collection or hold no test').toEqual([]);
      expect(row.gen.coverage?.measured, `coverage by the project's tool: ${row.gen.coverage?.reason}`).toBe(true);
      expect(row.gen.exit, `gen: ${row.gen.reason}`).toBe(known.exit ?? 0);
      const counts = (c: { passed: number; failed: number } | null) => c && { passed: c.passed, failed: c.failed };
      // A kept file of those adds its passing tests to the suite gen leaves.
      if (!known.baselineDiffers && !keptGood)
        expect(counts(row.gen.baseline), 'the fix loop starts from the published suite').toEqual(
          counts(row.bare.summary),
        );
    }, 1_800_000);
  }

  // team's L1 generator writes the removed file back, its L2 generator a second real file (`team.l2`).
  for (const entry of entries.filter((e) => e.team)) {
    it(`${entry.name}: team --pipeline standard -y completes every task and commits both real files as published`, async (ctx) => {
      if (unavailable.has(entry.name)) ctx.skip(`${entry.name}: ${unavailable.get(entry.name)}`);
      const row = await modules.runTeam(entry);
      const unfinished = row.tasks.filter((t) => t.status !== 'completed');
      expect(unfinished.map((t) => `${t.id} ${t.status}: ${t.error}`)).toEqual([]);
      expect(row.tasks.length, `team's tasks (stderr: ${row.stderr})`).toBe(6);
      expect(row.exit).toBe(0);
      expect(Object.values(row.realBack), JSON.stringify(row.realBack)).toEqual([true, true]);
      expect(row.broken, 'committed files that fail collection or hold no test').toEqual([]);
    }, 1_800_000);
  }
});
