import type { SessionWorktree } from '../isolation/types.js';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeJsonAtomic } from '../session/atomic.js';
import { claimFolder } from '../session/claim-folder.js';
import { workflowDir } from '../session/paths.js';
import type { PipelineName, Scope } from './scope.js';

export const TEAM_ROOT = join('.workflow', '.csv-wave');

/** The real folder of the repository's team sessions (see workflowDir). */
export function teamRoot(root: string): string {
  return join(workflowDir(root), '.csv-wave');
}

/** Where each file of one team session lives, in the design's layout. */
export function teamPaths(dir: string) {
  return {
    dir,
    tasks: join(dir, 'tasks.csv'),
    results: join(dir, 'results.csv'),
    wave: (n: number) => join(dir, `wave-${n}.csv`),
    discoveries: join(dir, 'discoveries.ndjson'),
    context: join(dir, 'context.md'),
    strategy: join(dir, 'strategy', 'test-strategy.md'),
    run: (layer: string) => join(dir, 'results', `run-${layer}.json`),
    quality: join(dir, 'analysis', 'quality-report.md'),
    wisdom: (name: 'learnings' | 'conventions' | 'decisions') => join(dir, 'wisdom', `${name}.md`),
    interactive: (id: string) => join(dir, 'interactive', `${id}-result.json`),
    transcript: (id: string, round: number) => join(dir, 'interactive', `${id}-agent-${round}.log`),
    /** The original of a module while a task's mutant is in its place (put back after a kill). */
    mutantJournal: (id: string) => join(dir, 'interactive', `${id}-mutant-in-place.json`),
    gcState: join(dir, 'gc-state.json'),
    scope: join(dir, 'interactive', 'PHASE0-result.json'),
    worktrees: join(dir, 'worktrees'),
  };
}
export type TeamPaths = ReturnType<typeof teamPaths>;

/** Phase 0's outcome, kept so --continue works on the same change and pipeline. */
export interface ScopeRecord {
  session_id: string;
  requirement: string;
  pipeline: PipelineName;
  pipeline_why: string;
  accepted_by: 'user' | '-y' | 'headless default' | '--pipeline';
  scope: Scope;
  runner: string;
  created_at: string;
  /** Began with --in-place (true) or in a worktree of its own (false); absent in sessions older than worktrees. */
  in_place?: boolean;
  /** The session's worktree, the main tree its tasks' commits land in; they come back to the user's branch at the end. */
  worktree?: SessionWorktree | undefined;
}

export interface GcState {
  rounds: Record<string, number>;
  coverage_history: { layer: string; round: number; pass_rate: number; coverage: number | null; at: string }[];
  max_rounds_per_layer: number;
  warnings: string[];
  /** Each layer's rounds when its executor began in a worktree: that worktree's rounds die with it, so --continue restores these. */
  started?: Record<string, number>;
}

function slugOf(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 40)
      .replace(/-$/, '') || 'change'
  );
}

/**
 * `tst-<slug>-<yyyymmdd>`, with a counter when that folder exists already. Making the folder is the claim, so two
 * team runs started at the same moment never share one.
 */
export async function claimTeamSessionId(root: string, requirement: string, now = new Date()): Promise<string> {
  const base = `tst-${slugOf(requirement)}-${now.toISOString().slice(0, 10).replace(/-/g, '')}`;
  await mkdir(teamRoot(root), { recursive: true });
  for (let n = 1; ; n++) {
    const id = n === 1 ? base : `${base}-${n}`;
    if (await claimFolder(join(teamRoot(root), id))) return id;
  }
}

/** Creates the session's folders and starting files (empty board, wisdom headers, GC state). */
export async function createTeamSession(dir: string): Promise<TeamPaths> {
  const paths = teamPaths(dir);
  for (const sub of [
    'strategy',
    'tests/L1-unit',
    'tests/L2-integration',
    'tests/L3-e2e',
    'results',
    'analysis',
    'wisdom',
    'interactive',
  ])
    await mkdir(join(dir, sub), { recursive: true });
  await writeFile(paths.discoveries, '', { flag: 'a' });
  await writeFile(paths.wisdom('learnings'), '# Learnings\n');
  await writeFile(paths.wisdom('conventions'), '# Conventions\n');
  await writeFile(paths.wisdom('decisions'), '# Decisions\n');
  await writeJsonAtomic(paths.gcState, {
    rounds: {},
    coverage_history: [],
    max_rounds_per_layer: 3,
    warnings: [],
  } satisfies GcState);
  return paths;
}

export async function readGcState(paths: TeamPaths): Promise<GcState> {
  try {
    const s = JSON.parse(await readFile(paths.gcState, 'utf8')) as Partial<GcState>;
    return {
      rounds: s.rounds ?? {},
      coverage_history: s.coverage_history ?? [],
      max_rounds_per_layer: s.max_rounds_per_layer ?? 3,
      warnings: s.warnings ?? [],
      ...(s.started ? { started: s.started } : {}),
    };
  } catch {
    return { rounds: {}, coverage_history: [], max_rounds_per_layer: 3, warnings: [] };
  }
}

/** The session `--continue` means: the one named, else the newest with tasks still to do. */
export async function findTeamSession(root: string, id: string | true): Promise<string> {
  const base = teamRoot(root);
  if (id !== true) {
    if (!existsSync(join(base, id, 'tasks.csv')))
      throw new Error(
        `no team session ${id} in ${TEAM_ROOT}: run \`fixcycle team --continue\` without an id to take the latest`,
      );
    return id;
  }
  const ids = (await readdir(base).catch(() => [] as string[])).filter(
    (n) => n.startsWith('tst-') && existsSync(join(base, n, 'tasks.csv')),
  );
  const withTime = await Promise.all(
    ids.map(async (n) => ({ n, t: (await import('node:fs')).statSync(join(base, n, 'tasks.csv')).mtimeMs })),
  );
  const latest = withTime.sort((a, b) => b.t - a.t)[0];
  if (!latest) throw new Error(`no team session to continue in ${TEAM_ROOT}: start one with \`fixcycle team\``);
  return latest.n;
}

/** Appends a line to one of the wisdom files. */
export async function addWisdom(
  paths: TeamPaths,
  name: 'learnings' | 'conventions' | 'decisions',
  line: string,
): Promise<void> {
  await writeFile(paths.wisdom(name), `- ${line}\n`, { flag: 'a' });
}

/** Reads, changes and writes gc-state.json under the session files' lock: executors of one wave run at once. */
export async function updateGcState(
  paths: TeamPaths,
  lock: { run<T>(job: () => Promise<T>): Promise<T> },
  change: (state: GcState) => void,
): Promise<void> {
  await lock.run(async () => {
    const state = await readGcState(paths);
    change(state);
    await writeJsonAtomic(paths.gcState, state);
  });
}
