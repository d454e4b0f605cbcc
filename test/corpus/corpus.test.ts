// The quick projects of the corpus (test/corpus/projects.json, `"quick": true`): real published projects,
// installed from the npm registry or Debian into the corpus cache, run by the built fixcycle with the runner it
// finds itself. The full corpus is `npm run corpus`. Skips, saying why, when the cache cannot be built here.
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { missingTool } from '../runners/helpers/fixtures.js';

interface Counts {
  passed: number;
  failed: number;
}
interface Entry {
  name: string;
  runner: string;
  family: string;
  quick?: boolean;
  expected: { unit: string; broken: Counts; fixed: Counts };
}
interface RunSummary {
  processExit: number | null;
  exitCode: number | null;
  outcome: string | null;
  reason: string | null;
  agentCalls: string[];
  first: (Counts & { failures: { id: string; message: string }[] }) | null;
  last: Counts | null;
}
interface Row {
  found: { runner: string | null; from: string | null; error: string | null };
  clean: RunSummary;
  broken: RunSummary;
}
interface CorpusModules {
  prepare(entry: Entry): Promise<string>;
  runProject(entry: Entry): Promise<Row>;
  sameRunner(found: string | null, expected: string): boolean;
}

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const entries = (JSON.parse(readFileSync(here('./projects.json'), 'utf8')) as Entry[]).filter((e) => e.quick);

async function loadModules(): Promise<CorpusModules> {
  const prepareModule = (await import(pathToFileURL(here('../../scripts/corpus/prepare.mjs')).href)) as Pick<
    CorpusModules,
    'prepare'
  >;
  const runModule = (await import(pathToFileURL(here('../../scripts/corpus/run-project.mjs')).href)) as Pick<
    CorpusModules,
    'runProject' | 'sameRunner'
  >;
  return { prepare: prepareModule.prepare, runProject: runModule.runProject, sameRunner: runModule.sameRunner };
}

/** The tool a corpus project's runner needs that does not run here (`cargo --version`), or null. */
function missingToolFor(runner: string): string | null {
  const probe: Record<string, [string, string[]]> = {
    cargo: ['cargo', ['--version']],
    go: ['go', ['version']],
    pytest: ['python3', ['-m', 'pytest', '--version']],
  };
  const found = probe[runner];
  return found ? missingTool(found) : null;
}

const counts = (c: Counts | null | undefined) => (c ? { passed: c.passed, failed: c.failed } : null);

describe('the corpus of published projects (quick ones)', () => {
  let modules: CorpusModules;
  let unavailable: string | null = null;

  beforeAll(async () => {
    modules = await loadModules();
    try {
      for (const entry of entries) await modules.prepare(entry);
    } catch (error) {
      unavailable = `the corpus cache cannot be built here (no registry?): ${String((error as Error).message).split('\n')[0]}`;
      console.warn(`skipping the corpus tests: ${unavailable}`);
    }
  }, 900_000);

  it('holds at least 3 quick projects over different runners', () => {
    expect(new Set(entries.map((e) => e.runner)).size).toBeGreaterThanOrEqual(3);
  });

  for (const entry of entries) {
    it(`${entry.name} (${entry.family}): runner found, unbroken ends at once, broken converges, counts are the runner's`, async (ctx) => {
      if (unavailable) ctx.skip(unavailable);
      const tool = missingToolFor(entry.runner);
      if (tool) ctx.skip(`${entry.name} needs ${tool}`);
      const row = await modules.runProject(entry);
      expect(
        modules.sameRunner(row.found.runner, entry.runner),
        `runner ${entry.runner} found, not ${row.found.runner} (${row.found.from ?? row.found.error})`,
      ).toBe(true);
      expect({
        exit: row.clean.processExit,
        agentCalls: row.clean.agentCalls.length,
        reason: row.clean.reason,
      }).toEqual({ exit: 0, agentCalls: 0, reason: row.clean.reason });
      expect(counts(row.clean.last), `unbroken counts (${entry.expected.unit})`).toEqual(entry.expected.fixed);
      expect(counts(row.broken.first), `broken counts (${entry.expected.unit})`).toEqual(entry.expected.broken);
      expect({ outcome: row.broken.outcome, exit: row.broken.processExit }, `broken run: ${row.broken.reason}`).toEqual(
        { outcome: 'success', exit: 0 },
      );
      expect(counts(row.broken.last), `fixed counts (${entry.expected.unit})`).toEqual(entry.expected.fixed);
    }, 900_000);
  }
});
