// gen_gate_ratio: on a real project of the generation corpus (bytes, mocha; re-created from Debian into the
// gen-corpus cache), the time `fixcycle gen` spends in IMPL-001.3 (L0) and IMPL-001.5 (the quality gate: each new
// test collected, 5 runs, coverage) while the scripted generator writes the removed test file back, over the time
// of 5 bare runs of the project's own suite. The phases are timed by when their `gen` events arrive on stdout.
// Target <= 2.0 with the mutation check: the gate's runs are the bulk of its cost, not the bookkeeping around them.
// gen_mutants_killed_new: mutants of the changed lines (index.js) the kept tests kill and no existing test does
// (Meta's ACH measure), with gen_mutants_made/_run/_killed beside it.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { run } from '../scripts/corpus/process.mjs';
import { envFor, prepare, resetProject } from '../scripts/gen-corpus/prepare.mjs';
import { AGENT, CLI, bareRun, writeSpec } from '../scripts/gen-corpus/run-project.mjs';

const PROJECT = 'bytes';
const entry = JSON.parse(
  readFileSync(fileURLToPath(new URL('../test/gen-corpus/projects.json', import.meta.url)), 'utf8'),
).find((e) => e.name === PROJECT);

/** Runs gen and returns the seconds between each gate's `running` and its `done`/`failed` event, summed over rounds. */
function timedGen(dir, specPath) {
  const args = [
    CLI,
    'gen',
    '--headless',
    '--json',
    '--max-iterations',
    '1',
    '--agent-cmd',
    `${process.execPath} ${AGENT} ${specPath}`,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: dir, env: envFor(entry), stdio: ['ignore', 'pipe', 'pipe'] });
    const open = new Map();
    const spent = { 'IMPL-001.3': 0, 'IMPL-001.5': 0 };
    let mutation = [];
    let mutantsFrom = null;
    let mutantsSpent = 0;
    let buffer = '';
    child.stdout.on('data', (chunk) => {
      const now = performance.now();
      buffer += chunk;
      const lines = buffer.split('\n');
      buffer = lines.pop();
      for (const line of lines) {
        if (!line.startsWith('{')) continue;
        const e = JSON.parse(line);
        // The last round's mutation check: the mutants its kept tests kill and no existing test does.
        if (e.type === 'gen-mutation') {
          mutation = e.modules;
          if (mutantsFrom !== null) mutantsSpent += (now - mutantsFrom) / 1000;
          mutantsFrom = null;
        }
        if (e.type === 'gen' && e.status === 'running' && /^mutant 1 of /.test(e.detail ?? '')) mutantsFrom = now;
        if (e.type !== 'gen' || !(e.node in spent)) continue;
        if (e.status === 'running' && !open.has(e.node)) open.set(e.node, now);
        else if ((e.status === 'done' || e.status === 'failed') && open.has(e.node)) {
          spent[e.node] += (now - open.get(e.node)) / 1000;
          open.delete(e.node);
        }
      }
    });
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code, l0: spent['IMPL-001.3'], quality: spent['IMPL-001.5'], mutation, mutantsSpent }),
    );
  });
}

const sum = (modules, key) => modules.reduce((n, m) => n + (m[key] ?? 0), 0);

export default async function () {
  const dir = await prepare(entry);
  await resetProject(dir);
  const bare = [];
  for (let i = 0; i < 5; i++) bare.push((await bareRun(dir, entry)).seconds);
  // The generation a good model makes: the removed file as the project had it, nothing else.
  const { path } = writeSpec(entry, { bad: [] });
  const gen = await timedGen(dir, path);
  await resetProject(dir);
  await run(['git', 'worktree', 'prune'], { cwd: dir });
  if (gen.code !== 0)
    throw new Error(`fixcycle gen exited ${gen.code} on ${PROJECT} with only the real test file written back`);
  const bareTotal = bare.reduce((a, b) => a + b, 0);
  return {
    gen_gate_ratio: (gen.l0 + gen.quality) / bareTotal,
    gen_gate_l0_s: gen.l0,
    gen_gate_quality_s: gen.quality,
    gen_gate_bare_5_runs_s: bareTotal,
    gen_gate_mutation_s: gen.mutantsSpent,
    gen_mutants_made: sum(gen.mutation, 'made'),
    gen_mutants_run: sum(gen.mutation, 'run'),
    gen_mutants_killed: sum(gen.mutation, 'killedByKept'),
    gen_mutants_killed_new: sum(gen.mutation, 'killedByKeptOnly'),
  };
}
