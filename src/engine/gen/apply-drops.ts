import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runFile } from './collect.js';
import { dropTests } from './drop-tests.js';
import { node, type GenContext } from './gen-context.js';
import { identityOf, type Observed } from './quality-observe.js';

/** What the run after a drop said: the file is fine, holds no test any more, or a kept test broke. */
type Verified = { ok: true; note?: string } | { ok: false; empty: true } | { ok: false; broken: string[] };

const firstLine = (text: string | undefined): string => (text ?? '').split('\n')[0]!.trim().slice(0, 160);

/**
 * Runs a file again after tests left it: every kept test that passed before must still be collected and pass
 * (a dropped test may have set up state the others read, `self.__class__.x = ...` in a probe test).
 */
async function verify(
  ctx: GenContext,
  file: string,
  files: readonly string[],
  observed: ReadonlyMap<string, Observed>,
): Promise<Verified> {
  node(ctx, 'IMPL-001.5', 'running', `${file} again, after tests were dropped from it`);
  const ran = await runFile(
    { runner: ctx.runner, root: ctx.repo.root, timeoutMs: ctx.options.testTimeoutMs, signal: ctx.signal },
    file,
    files,
  );
  if (!ran)
    return { ok: true, note: `${ctx.runner.name} cannot run one file alone: the drop was not checked by a run` };
  // go's run is the package's: a Go file left without tests shows as its kept tests missing.
  if (!file.endsWith('_test.go') && ran.tests.length === 0) return { ok: false, empty: true };
  const now = new Map(ran.tests.map((t) => [identityOf(file, t).id, t]));
  const broken: string[] = [];
  for (const k of ctx.state.kept.filter((k) => k.file === file)) {
    const before = observed.get(k.test);
    if (!before || before.statuses.some((s) => s !== 'passed')) continue;
    const after = now.get(k.test);
    if (!after) broken.push(`${k.test} is no longer collected`);
    else if (after.status !== 'passed') broken.push(`${k.test} ${after.status}: ${firstLine(after.message)}`);
  }
  const errors = ran.run.result.errors.map((e) => firstLine(e.message)).filter(Boolean);
  if (broken.length === 0 && errors.length > 0) broken.push(`the file errs: ${errors[0]}`);
  return broken.length ? { ok: false, broken } : { ok: true };
}

/**
 * Takes the rejected tests out of their files, precisely (a describe's case, a class's method, a go subtest), and
 * runs each file again: a drop that breaks a kept test is undone (the dropped test was part of the file's setup,
 * so it stays and is kept, and the summary says why); a file whose runner collects no test any more goes, as does
 * every new file left without a kept test.
 */
export async function applyDrops(
  ctx: GenContext,
  files: readonly string[],
  drop: ReadonlyMap<string, Observed[]>,
  observed: ReadonlyMap<string, Observed>,
): Promise<void> {
  const { state } = ctx;
  const notes: string[] = [];
  for (const file of files) {
    const keep = state.kept.some((k) => k.file === file);
    const rejected = drop.get(file) ?? [];
    if (keep && rejected.length === 0) continue;
    const path = join(ctx.repo.root, file);
    const text = existsSync(path) ? readFileSync(path, 'utf8') : null;
    const out = await dropTests(
      ctx.repo,
      file,
      rejected.map((t) => t.path),
      keep,
    );
    let why = out.why;
    if (!out.fileGone && text !== null) {
      const checked = await verify(ctx, file, files, observed);
      if (!checked.ok && 'broken' in checked) {
        writeFileSync(path, text);
        const because = checked.broken.slice(0, 3).join('; ');
        notes.push(`${file}: drop undone, it broke the kept tests (${because})`);
        for (const t of rejected) {
          state.rejected = state.rejected.filter((r) => !(r.gate === 'IMPL-001.5' && r.test === t.id));
          state.kept.push({
            test: t.id,
            file,
            note: `kept: dropping it made the file's other tests fail when run again (${because}); it is part of the file's setup`,
          });
        }
        continue;
      }
      if (!checked.ok) {
        await ctx.repo.restoreFiles([file]);
        why = 'the runner collects no test from what is left of it';
      } else {
        if (checked.note) notes.push(`${file}: ${checked.note}`);
        continue;
      }
    } else if (!out.fileGone) continue;
    notes.push(`${file} removed${why ? ` (${why})` : ': none of its tests was kept'}`);
    // Kept tests that had to go with their file are rejected, and say why.
    for (const k of state.kept.filter((k) => k.file === file))
      state.rejected.push({
        test: k.test,
        file,
        gate: 'IMPL-001.5',
        reason: `removed with its file: ${why ?? 'the file went'}`,
        round: state.generate_round,
      });
    state.kept = state.kept.filter((k) => k.file !== file);
  }
  state.generated_files = state.generated_files.filter((f) => existsSync(join(ctx.repo.root, f)) || !files.includes(f));
  if (notes.length) ctx.emit({ type: 'log', level: 'info', message: `IMPL-001.5: ${notes.join('; ')}` });
}
