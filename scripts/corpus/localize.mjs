// Localization on one corpus project, without the agent loop: the broken checkout (the injected bug committed
// on the published state), one run of the failing tests, then fixcycle's localization, and the rank of the
// true location (the bug's lines, from the diff) among the suspects. Imports the built engine (dist/).
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { applyBug, bugFiles } from './bug.mjs';
import { commit, prepare } from './prepare.mjs';
import { baseCommit, resetTo } from './run-project.mjs';
import { runOrThrow } from './process.mjs';

const dist = (path) => new URL(`../../dist/engine/${path}`, import.meta.url).href;

/**
 * 1-based rank of the first entry `hit` accepts, or null, with ties counted against it: every other entry
 * scoring as high as the hit ranks before it, so a tie for first is a miss unless the hit is alone at the top.
 * Entries `hit` also accepts are not counted against it: a bug of two functions tied at the top is found.
 */
export const rankOf = (list, hit) => {
  const i = list.findIndex(hit);
  if (i < 0) return null;
  const score = list[i].score;
  let rank = i + 1;
  for (let j = i + 1; j < list.length && list[j].score >= score; j++) if (!hit(list[j])) rank++;
  return rank;
};

/** The failures of a run as the loop keeps them (the prompt and localization read these fields). */
function failuresOf(run) {
  return run.result.tests
    .filter((t) => t.status === 'failed')
    .map((t) => ({
      id: t.id,
      name: t.name,
      file: t.file,
      message: t.message ?? '',
      stack: t.stack,
      criticality: 'medium',
      criticality_source: 'default',
    }));
}

/**
 * A pytest project runs with the Python that has coverage.py (its per-test contexts are the spectrum), as a
 * user measuring localization would: here the `python3` on PATH (pyenv's) has pytest but no coverage.py, the
 * system's /usr/bin/python3 has both. PATH is left alone when the first Python has coverage.py or none does.
 * Returns what puts PATH back.
 */
function withCoveragePython(entry, log) {
  if (!/\bpy\.?test\b|-m pytest/.test(entry.test)) return () => {};
  const has = (python) => spawnSync(python, ['-c', 'import coverage, pytest'], { stdio: 'ignore' }).status === 0;
  if (has('python3') || !has('/usr/bin/python3')) return () => {};
  const bin = mkdtempSync(join(tmpdir(), 'corpus-python-'));
  for (const name of ['python', 'python3', 'pytest', 'py.test'])
    symlinkSync(
      name.startsWith('py') && name !== 'python' && name !== 'python3' ? '/usr/bin/pytest' : '/usr/bin/python3',
      join(bin, name),
    );
  const before = process.env.PATH;
  process.env.PATH = `${bin}:${before}`;
  log("the python3 on PATH has no coverage.py: the tests run with /usr/bin/python3's pytest, which has it");
  return () => {
    process.env.PATH = before;
    rmSync(bin, { recursive: true, force: true });
  };
}

export async function localizeProject(entry, { log = () => {} } = {}) {
  const dir = await prepare(entry, log);
  const base = await baseCommit(dir);
  await resetTo(dir, base);
  applyBug(dir, entry.bug);
  await runOrThrow(['git', 'add', '-A'], { cwd: dir });
  await commit(dir, `corpus: inject the bug in ${bugFiles(entry.bug).join(', ')}`);
  for (const [k, v] of Object.entries(entry.env ?? {})) process.env[k] = v;
  const restorePath = withCoveragePython(entry, log);
  try {
    return await measureProject(entry, dir, base, log);
  } finally {
    restorePath();
  }
}

async function measureProject(entry, dir, base, log) {
  const [
    { resolveRunner },
    { localize },
    { changedLinesSince },
    { functionsOf, enclosingFunction, TOP_LEVEL },
    prompts,
  ] = await Promise.all([
    import(dist('runners/index.js')),
    import(dist('localize/index.js')),
    import(dist('localize/change.js')),
    import(dist('localize/functions.js')),
    import(dist('prompts/index.js')),
  ]);

  // The true location: the lines the bug changed, and the function holding them; a bug of several edits
  // (lines, functions, files) has one per function, and a suspect holding any of them is a hit.
  const changed = await changedLinesSince(dir, base);
  const places = [];
  for (const file of bugFiles(entry.bug)) {
    const lines = [...(changed.get(file) ?? [])].sort((a, b) => a - b);
    const spans = await functionsOf(file, readFileSync(join(dir, file), 'utf8'));
    for (const line of lines) {
      const name = enclosingFunction(spans, line)?.name ?? TOP_LEVEL;
      const place = places.find((p) => p.file === file && p.function === name);
      if (place) place.lines.push(line);
      else places.push({ file, function: name, lines: [line] });
    }
  }
  const truth = { ...places[0], places };

  const runner = await resolveRunner(dir, {});
  const timeoutMs = Number(process.env.FIXCYCLE_CORPUS_TIMEOUT_SEC || 900) * 1000;
  log('full run of the broken project');
  const full = await runner.run({ cwd: dir, scope: 'full', timeoutMs });
  const failures = failuresOf(full);
  // A crash that ended the run (an uncaught exception, a load error) leaves errors and no failing test.
  const errors = failures.length === 0 ? full.result.errors.filter((e) => !e.notHere) : [];
  if (failures.length === 0 && errors.length === 0)
    throw new Error(`the broken project has no failing test (exit ${full.exitCode})`);
  log(`${failures.length} failing; one run of the failing tests`);
  const failingRun = await runner.run({
    cwd: dir,
    scope: 'affected',
    changedFiles: [],
    lastFailures: [...failures, ...errors.map((e) => ({ id: e.message, file: e.file }))].map((f) => ({
      id: f.id,
      file: f.file,
    })),
    timeoutMs,
  });
  await resetTo(dir, 'HEAD');

  log('localization (the change known: the corpus runs fixcycle green on the published state first)');
  const started = Date.now();
  const withChange = await localize({ root: dir, runner, failures, errors, timeoutMs, changeBase: base });
  const localizeMs = Date.now() - started;
  // The same coverage (cached for this commit), without the change: what spectra and stacks alone find.
  const alone = await localize({ root: dir, runner, failures, errors, timeoutMs, changeBase: null });
  await resetTo(dir, 'HEAD');

  const inFunction = (s) =>
    places.some((p) => s.file === p.file && p.lines.some((l) => s.startLine <= l && l <= s.endLine));
  const onLine = (l) => places.some((p) => l.file === p.file && p.lines.includes(l.line));
  const promptOf = (localization) =>
    prompts.renderAnalysisPrompt({
      iteration: 1,
      maxIterations: 5,
      strategy: 'conservative',
      strategyReason: 'first iteration',
      passRate: 0,
      failures,
      errors: [],
      stuckTests: [],
      history: [],
      paths: {
        testResults: '.workflow/test-results.json',
        testOutput: '.workflow/test-output.log',
        task: '.workflow/IMPL-fix-1.json',
        sessionDir: '.workflow',
      },
      ...(localization ? { localization, root: dir } : {}),
    });
  const measure = (loc) => ({
    functionRank: rankOf(loc.suspects, inFunction),
    lineRank: rankOf(loc.lines, onLine),
    used: loc.used,
    top: loc.suspects.slice(0, 3).map((s) => `${s.file}:${s.function}:${s.startLine}-${s.endLine} (${s.score})`),
  });
  const prompt = { today: promptOf(null), withSuspects: promptOf(withChange) };
  // LOCALIZE_CORPUS_DETAIL=dir keeps each project's rankings, every suspect with its evidence, to read a miss.
  if (process.env.LOCALIZE_CORPUS_DETAIL) {
    const { mkdirSync } = await import('node:fs');
    mkdirSync(process.env.LOCALIZE_CORPUS_DETAIL, { recursive: true });
    const detail = (loc) => ({
      used: loc.used,
      notes: loc.notes,
      granularity: loc.granularity,
      suspects: loc.suspects,
    });
    const file = join(process.env.LOCALIZE_CORPUS_DETAIL, `${entry.name}.json`);
    writeFileSync(
      file,
      JSON.stringify(
        {
          truth,
          failures: failures.map((f) => f.id).slice(0, 20),
          withChange: detail(withChange),
          alone: detail(alone),
        },
        null,
        2,
      ),
    );
  }
  // LOCALIZE_CORPUS_PROMPTS=dir keeps both prompts of each project to read.
  if (process.env.LOCALIZE_CORPUS_PROMPTS) {
    const { mkdirSync } = await import('node:fs');
    mkdirSync(process.env.LOCALIZE_CORPUS_PROMPTS, { recursive: true });
    for (const [k, v] of Object.entries(prompt))
      writeFileSync(join(process.env.LOCALIZE_CORPUS_PROMPTS, `${entry.name}.${k}.md`), v);
  }
  return {
    name: entry.name,
    runner: runner.name,
    truth,
    failing: failures.length,
    crashed: errors.length,
    granularity: withChange.granularity ?? null,
    notes: withChange.notes,
    withChange: measure(withChange),
    withoutChange: measure(alone),
    localizeMs,
    failingRunMs: failingRun.durationMs,
    costRatio: localizeMs / Math.max(1, failingRun.durationMs),
    promptChars: { today: prompt.today.length, withSuspects: prompt.withSuspects.length },
  };
}
