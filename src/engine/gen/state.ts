import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { HandBackRecord } from '../isolation/types.js';
import { writeJsonAtomic } from '../session/atomic.js';
import { SessionFileError } from '../session/session-files.js';

/** Where phase 5 is; a resume continues from here without redoing a finished step. */
export const execStepSchema = z.enum(['generate', 'validate', 'quality', 'commit', 'fix', 'settle', 'summary', 'done']);
export type ExecStep = z.infer<typeof execStepSchema>;

export const rejectionSchema = z.object({
  test: z.string(),
  file: z.string().optional(),
  gate: z.enum(['IMPL-001', 'IMPL-001.3', 'IMPL-001.5', 'IMPL-002']),
  reason: z.string(),
  round: z.number().int(),
});
export type Rejection = z.infer<typeof rejectionSchema>;

export const keptTestSchema = z.object({
  test: z.string(),
  file: z.string(),
  note: z.string(),
  new_lines: z.number().int().optional(),
});
export type KeptTest = z.infer<typeof keptTestSchema>;

/** .process/gen-state.json: the pipeline's own progress, saved after every step. */
export const genStateSchema = z.looseObject({
  session_id: z.string(),
  phases_done: z.array(z.enum(['session', 'context', 'analysis', 'tasks'])).default([]),
  plan_only: z.boolean().default(false),
  /** What `fixcycle gen` was given (null: the change on this branch), so a session stopped in phase 1 can redo it. */
  input: z.string().nullable().default(null),
  /** The gen options chosen at the start; a resume keeps them. */
  settings: z
    .looseObject({
      coverage_lines: z.number(),
      coverage_branches: z.number(),
      layers: z.array(z.enum(['L1', 'L2', 'L3'])),
      keep_redundant: z.boolean(),
    })
    .optional(),
  step: execStepSchema.default('generate'),
  /** Generate rounds so far (IMPL-001 and the rounds the gates sent back). */
  generate_round: z.number().int().default(0),
  l0_rounds: z.number().int().default(0),
  coverage_rounds: z.number().int().default(0),
  /** Why the next generate round runs: the findings or the uncovered lines it is aimed at. */
  feedback: z.array(z.string()).default([]),
  feedback_kind: z.enum(['initial', 'l0', 'coverage', 'source']).default('initial'),
  /** Test files the generation wrote (repository-relative); the fix loop may edit these. */
  generated_files: z.array(z.string()).default([]),
  kept: z.array(keptTestSchema).default([]),
  rejected: z.array(rejectionSchema).default([]),
  redundant_kept: z.array(z.string()).default([]),
  gen_commit: z.string().nullable().default(null),
  /** Began with --in-place (true), or in a worktree of its own (false); absent in sessions older than worktrees. */
  in_place: z.boolean().optional(),
  /** The worktree gen works in (absent with --in-place and in sessions older than it); its commits come back at the end. */
  worktree: z
    .object({
      dir: z.string(),
      branch: z.string(),
      user_branch: z.string(),
      base: z.string(),
      snapshot: z.string(),
      handback: z.custom<HandBackRecord>((v) => typeof v === 'object' && v !== null).optional(),
    })
    .optional(),
  coverage_note: z.string().optional(),
  outcome: z.string().optional(),
  updated_at: z.string().optional(),
});
export type GenState = z.infer<typeof genStateSchema>;

export function genStatePath(sessionDir: string): string {
  return join(sessionDir, '.process', 'gen-state.json');
}

export function newGenState(sessionId: string, planOnly: boolean, input: string | null): GenState {
  return genStateSchema.parse({ session_id: sessionId, plan_only: planOnly, input });
}

export async function readGenState(sessionDir: string): Promise<GenState | null> {
  const path = genStatePath(sessionDir);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return null;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new SessionFileError(
      `${path} is not valid JSON (${(error as Error).message}): restore it, or start a new session with \`fixcycle gen\``,
    );
  }
  const parsed = genStateSchema.safeParse(raw);
  if (!parsed.success)
    throw new SessionFileError(
      `${path} is not a gen state (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}): restore it, or start a new session with \`fixcycle gen\``,
    );
  return parsed.data;
}

export function saveGenState(sessionDir: string, state: GenState): Promise<void> {
  return writeJsonAtomic(genStatePath(sessionDir), { ...state, updated_at: new Date().toISOString() });
}
