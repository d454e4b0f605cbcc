// Stores in each state the TUI must show, built the way the engine builds them: by applying EngineEvents.
import type { EngineEvent } from '../../src/engine/events.js';
import type { Iteration, IterationState } from '../../src/engine/session/schema.js';
import type { Criticality, Failure, TestResults } from '../../src/engine/types.js';
import { createFixcycleStore } from '../../src/state/store.js';

export function failure(name: string, message: string, criticality: Criticality = 'medium'): Failure {
  return {
    id: `test/app.test.js::${name}`,
    name,
    file: 'test/app.test.js',
    message,
    criticality,
    criticality_source: 'default',
  };
}

export function results(passRate: number, failures: Failure[], total = 40): TestResults {
  return {
    total,
    passed: total - failures.length,
    failed: failures.length,
    skipped: 0,
    pass_rate: passRate,
    failures,
    errors: [],
    scope: 'full',
    source: 'report',
    exit_code: failures.length > 0 ? 1 : 0,
    timed_out: false,
    duration_ms: 1200,
    finished_at: '2025-10-17T10:20:00Z',
  };
}

export function iterationState(iterations: Iteration[], extra: Partial<IterationState> = {}): IterationState {
  return {
    session_id: 'WFS-test-checkout',
    current_task: 'IMPL-002',
    current_iteration: iterations.at(-1)?.iteration ?? 0,
    max_iterations: 5,
    started_at: '2025-10-17T10:00:00Z',
    updated_at: '2025-10-17T10:20:00Z',
    status: 'active',
    selected_strategy: 'conservative',
    strategy_reason: 'iterations 1-2 start conservatively',
    next_action: 'execute_fix_task',
    stuck_tests: [],
    iterations,
    ...extra,
  };
}

const SHA1 = '1bd3769aa9f0c3e1d2b4a5c6d7e8f90123456789';
const SHA2 = '9f8e7d6c5b4a39281706f5e4d3c2b1a098765432';

export const FIRST: Iteration = {
  iteration: 1,
  strategy: 'conservative',
  pass_rate_before: 75,
  pass_rate: 82.5,
  test_results: { total: 40, passed: 33, failed: 7 },
  agent: 'claude',
  agents_tried: ['claude'],
  result: 'improved',
  commit: SHA1,
  duration_ms: 65_000,
};

const session: EngineEvent = {
  type: 'session',
  sessionId: 'WFS-test-checkout',
  sessionDir: '/tmp/none',
  repo: '/tmp/none',
  chain: ['claude', 'codex'],
  testCommand: 'node --test',
  resumed: false,
};

const ASSERT = 'AssertionError: expected 1999 to equal 2000';

function build(events: EngineEvent[]) {
  const store = createFixcycleStore({ flushMs: 1 });
  for (const event of events) store.getState().apply(event);
  return store;
}

/** Nothing has run yet: the session exists, every phase is pending. */
export function pendingStore() {
  return build([session]);
}

/** Iteration 2's fix is running after iteration 1 improved the pass rate. */
export function runningStore() {
  const failures = [
    failure('formats a price with cents', ASSERT),
    failure('formats euros', 'AssertionError: expected 499 to equal 500'),
    failure('paginates', 'TypeError: Cannot read properties of undefined (reading "length")', 'high'),
  ];
  return build([
    session,
    { type: 'phase', phase: 'test', status: 'done', iteration: 0, detail: 'pass 75% (30/40)' },
    { type: 'results', iteration: 1, results: results(82.5, failures) },
    {
      type: 'state',
      state: iterationState([
        FIRST,
        { iteration: 2, strategy: 'conservative', pass_rate_before: 82.5, result: 'in_progress', step: 'fix' },
      ]),
    },
    { type: 'strategy', iteration: 2, strategy: 'conservative', reason: 'iterations 1-2 start conservatively' },
    { type: 'phase', phase: 'analysis', status: 'done', iteration: 2 },
    { type: 'agent', iteration: 2, agent: 'claude', role: 'fix', status: 'started' },
    { type: 'phase', phase: 'fix', status: 'running', iteration: 2 },
    { type: 'output-reset', label: 'iteration 2: fix' },
    {
      type: 'output',
      lines: ['claude: reading src/money.js', 'not ok 3 - formats a price with cents', 'claude: editing toCents'],
    },
  ]);
}

/** Iteration 2 regressed and was rolled back; iteration 3 analyses with the surgical strategy. */
export function regressionStore() {
  const failures = [failure('formats a price with cents', ASSERT)];
  return build([
    session,
    { type: 'phase', phase: 'test', status: 'done', iteration: 0 },
    { type: 'results', iteration: 2, results: results(82.5, failures) },
    {
      type: 'state',
      state: iterationState(
        [
          FIRST,
          {
            iteration: 2,
            strategy: 'aggressive',
            pass_rate_before: 82.5,
            pass_rate: 60,
            test_results: { total: 40, passed: 24, failed: 16 },
            agent: 'claude',
            agents_tried: ['claude'],
            result: 'regressed_rolled_back',
            commit: SHA2,
            rollback_commit: 'abcdef0123',
            duration_ms: 42_000,
          },
          { iteration: 3, strategy: 'surgical', pass_rate_before: 82.5, result: 'in_progress', step: 'analyze' },
        ],
        { selected_strategy: 'surgical', strategy_reason: 'iteration 2 regressed (60% < 82.5%): the narrowest fix' },
      ),
    },
    {
      type: 'rollback',
      iteration: 2,
      sha: 'abcdef0123',
      message: 'test-cycle: rollback iteration 2',
      reason: 'regression detected (pass: 60% < 82.5%)',
    },
    {
      type: 'strategy',
      iteration: 3,
      strategy: 'surgical',
      reason: 'iteration 2 regressed (60% < 82.5%): the narrowest fix',
    },
    { type: 'phase', phase: 'analysis', status: 'running', iteration: 3 },
  ]);
}

/** Three iterations failed the same tests: they are stuck. */
export function stuckStore() {
  const failures = [
    failure('rounds half up', ASSERT, 'high'),
    failure('rounds negatives', 'AssertionError: expected -1 to equal -2', 'high'),
  ];
  const it = (n: number): Iteration => ({
    iteration: n,
    strategy: n < 3 ? 'conservative' : 'aggressive',
    pass_rate: 95,
    pass_rate_before: 95,
    test_results: { total: 40, passed: 38, failed: 2 },
    agent: 'claude',
    result: n === 3 ? 'stuck' : 'no_change',
    duration_ms: 30_000,
  });
  return build([
    session,
    { type: 'phase', phase: 'test', status: 'done', iteration: 0 },
    { type: 'results', iteration: 3, results: results(95, failures) },
    {
      type: 'state',
      state: iterationState([it(1), it(2), it(3)], {
        stuck_tests: ['test/app.test.js::rounds half up', 'test/app.test.js::rounds negatives'],
      }),
    },
    { type: 'stuck', iteration: 3, tests: ['test/app.test.js::rounds half up', 'test/app.test.js::rounds negatives'] },
  ]);
}

/** 96.5% with only low-criticality failures left: the loop waits for approval. */
export function awaitingApprovalStore() {
  const failures = [failure('renders a tooltip', 'AssertionError: expected "Save" to equal "Save changes"', 'low')];
  return build([
    session,
    { type: 'phase', phase: 'test', status: 'done', iteration: 0 },
    { type: 'results', iteration: 1, results: results(96.5, failures) },
    {
      type: 'state',
      state: iterationState([{ ...FIRST, pass_rate: 96.5 }], {
        status: 'awaiting_approval',
        next_action: 'await_approval',
      }),
    },
    { type: 'phase', phase: 'validation', status: 'done', iteration: 1 },
    { type: 'phase', phase: 'completion', status: 'running', iteration: 1, detail: 'awaiting approval' },
    { type: 'await-approval', passRate: 96.5, failures },
  ]);
}

/** Max iterations reached with failures left. */
export function failureStore() {
  const failures = [failure('formats a price with cents', ASSERT, 'high')];
  return build([
    session,
    { type: 'phase', phase: 'test', status: 'done', iteration: 0 },
    { type: 'results', iteration: 5, results: results(72, failures) },
    { type: 'state', state: iterationState([FIRST], { status: 'failed', current_iteration: 5 }) },
    { type: 'phase', phase: 'validation', status: 'done', iteration: 5 },
    { type: 'phase', phase: 'completion', status: 'failed', iteration: 5 },
    {
      type: 'done',
      outcome: 'failure',
      reason: 'max iterations reached (5) with 1 high-criticality failure',
      exitCode: 1,
      passRate: 72,
      reportPath: '.workflow/active/WFS-test-checkout/.summaries/failure-report.md',
    },
  ]);
}

/** Every agent of the chain failed in iteration 2: it is degraded. */
export function degradedStore() {
  return build([
    session,
    { type: 'phase', phase: 'test', status: 'done', iteration: 0 },
    {
      type: 'state',
      state: iterationState([
        FIRST,
        {
          iteration: 2,
          strategy: 'conservative',
          pass_rate_before: 82.5,
          agents_tried: ['claude', 'codex'],
          degraded: true,
          result: 'degraded',
          step: 'fix',
        },
      ]),
    },
    { type: 'phase', phase: 'analysis', status: 'running', iteration: 2 },
    {
      type: 'agent',
      iteration: 2,
      agent: 'claude',
      role: 'analyze',
      status: 'finished',
      classification: 'rate_limited',
    },
    { type: 'agent', iteration: 2, agent: 'codex', role: 'analyze', status: 'finished', classification: 'timeout' },
    { type: 'phase', phase: 'analysis', status: 'failed', iteration: 2, detail: 'no usable plan (degraded)' },
  ]);
}

/** Iteration 2's analysis fell back from claude (rate limited) to codex. */
export function fallbackStore() {
  return build([
    session,
    { type: 'phase', phase: 'test', status: 'done', iteration: 0 },
    {
      type: 'state',
      state: iterationState([
        FIRST,
        {
          iteration: 2,
          strategy: 'conservative',
          agents_tried: ['claude', 'codex'],
          agent: 'codex',
          result: 'improved',
          pass_rate: 90,
          pass_rate_before: 82.5,
        },
      ]),
    },
    { type: 'phase', phase: 'analysis', status: 'running', iteration: 2 },
    {
      type: 'agent',
      iteration: 2,
      agent: 'claude',
      role: 'analyze',
      status: 'finished',
      classification: 'rate_limited',
    },
    { type: 'agent', iteration: 2, agent: 'codex', role: 'analyze', status: 'started' },
  ]);
}
