import { z } from 'zod';
import type { SessionWorktree } from '../isolation/types.js';

export const criticalitySchema = z.enum(['high', 'medium', 'low']);
export const strategySchema = z.enum(['conservative', 'aggressive', 'surgical']);

/** What the loop does next; `--resume-session` continues from here. */
export const nextActionSchema = z.enum(['execute_fix_task', 'retest', 'complete', 'await_approval']);
export type NextAction = z.infer<typeof nextActionSchema>;

export const sessionStatusSchema = z.enum([
  'active',
  'paused',
  'awaiting_approval',
  'completed',
  'partial_success',
  'failed',
  'interrupted',
  'blocked',
]);
export type SessionStatus = z.infer<typeof sessionStatusSchema>;

/** How an iteration ended. The first three are the design's words; the rest are fixcycle's. */
export const iterationResultSchema = z.enum([
  'success',
  'partial_success',
  'failed',
  'improved',
  'no_change',
  'regressed_rolled_back',
  'rolled_back',
  'rejected',
  'degraded',
  'stuck',
  'in_progress',
]);
export type IterationResult = z.infer<typeof iterationResultSchema>;

/** Where the current iteration is, finer than next_action, so a resume neither skips nor repeats a step. */
export const iterationStepSchema = z.enum(['analyze', 'fix', 'retest', 'done']);
export type IterationStep = z.infer<typeof iterationStepSchema>;

// Failures are names in the design's example and objects in fixcycle's files; accept both.
const failureRefSchema = z.union([
  z.string(),
  z.looseObject({ id: z.string().optional(), name: z.string().optional(), criticality: criticalitySchema.optional() }),
]);

export const iterationSchema = z.looseObject({
  iteration: z.number().int().min(0),
  started_at: z.string().optional(),
  completed_at: z.string().optional(),
  pass_rate: z.number().optional(),
  pass_rate_before: z.number().optional(),
  strategy: strategySchema.optional(),
  strategy_reason: z.string().optional(),
  failed_tests: z.array(z.string()).optional(),
  test_results: z
    .looseObject({
      total: z.number().optional(),
      passed: z.number().optional(),
      failed: z.number().optional(),
      failures: z.array(failureRefSchema).optional(),
    })
    .optional(),
  analysis_file: z.string().optional(),
  fix_task: z.string().optional(),
  result: z.string().optional(),
  commit: z.string().nullable().optional(),
  rollback_commit: z.string().nullable().optional(),
  step: iterationStepSchema.optional(),
  agent: z.string().optional(),
  agents_tried: z.array(z.string()).optional(),
  degraded: z.boolean().optional(),
  files_changed: z.array(z.string()).optional(),
  tests_run: z.array(z.string()).optional(),
  tests_run_reason: z.string().optional(),
  /** Tests that passed before the iteration's fix and failed after it (the fix was rolled back for them). */
  broken_tests: z.array(z.string()).optional(),
  duration_ms: z.number().optional(),
  note: z.string().optional(),
});
export type Iteration = z.infer<typeof iterationSchema>;

/** iteration-state.json, accepting the fields of both shapes in the design. */
export const iterationStateSchema = z.looseObject({
  session_id: z.string().optional(),
  current_task: z.string().optional(),
  current_iteration: z.number().int().min(0).optional(),
  max_iterations: z.number().int().min(1).optional(),
  started_at: z.string().optional(),
  updated_at: z.string().optional(),
  status: z.string().optional(),
  selected_strategy: strategySchema.optional(),
  strategy_reason: z.string().optional(),
  next_action: nextActionSchema.optional(),
  stuck_tests: z.array(z.string()).optional(),
  iterations: z.array(iterationSchema).default([]),
  outcome_reason: z.string().optional(),
  baseline_total: z.number().optional(),
  pending_rollback: z.string().nullable().optional(),
});

/** The normalized state fixcycle works with: every field the loop needs is present. */
export interface IterationState {
  session_id: string;
  current_task: string;
  current_iteration: number;
  max_iterations: number;
  started_at: string;
  updated_at: string;
  status: SessionStatus;
  selected_strategy: z.infer<typeof strategySchema>;
  strategy_reason: string;
  next_action: NextAction;
  stuck_tests: string[];
  iterations: Iteration[];
  outcome_reason?: string;
  baseline_total?: number;
  /** The worktree the loop runs in (absent in place, with --in-place, and in sessions older than it). */
  worktree?: SessionWorktree;
  [extra: string]: unknown;
}

/** The fix plan an analysis agent returns. */
export const fixPlanSchema = z.object({
  root_causes: z.array(z.string().min(1)).min(1),
  modification_points: z.array(z.string().min(1)).min(1),
  affected_tests: z.array(z.string()).default([]),
  confidence_score: z.number().min(0).max(1),
  approach: z.string().min(1),
  criticality: z.record(z.string(), criticalitySchema).optional(),
  tests_are_wrong: z.array(z.string()).optional(),
});
export type FixPlan = z.infer<typeof fixPlanSchema>;

export const fixOutcomeSchema = z.enum([
  'improved',
  'no_change',
  'regressed_rolled_back',
  'rolled_back',
  'rejected',
  'degraded',
]);
export type FixOutcome = z.infer<typeof fixOutcomeSchema>;

/** One entry of fix-history.json: a fix attempt and how it turned out. */
export const fixHistoryEntrySchema = z.looseObject({
  iteration: z.number().int(),
  agent: z.string().nullable(),
  strategy: strategySchema,
  root_causes: z.array(z.string()),
  modification_points: z.array(z.string()),
  approach: z.string().optional(),
  files_changed: z.array(z.string()),
  pass_rate_before: z.number(),
  pass_rate_after: z.number().nullable(),
  outcome: fixOutcomeSchema,
  reason: z.string().optional(),
  /** Tests that passed before the fix and failed after it (the fix was rolled back for them). */
  broken_tests: z.array(z.string()).optional(),
  commit: z.string().nullable().optional(),
  at: z.string(),
});
export type FixHistoryEntry = z.infer<typeof fixHistoryEntrySchema>;
export const fixHistorySchema = z.array(fixHistoryEntrySchema);
