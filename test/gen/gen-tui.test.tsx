import { afterEach, describe, expect, it } from 'vitest';
import { PhaseTree } from '../../src/components/phase-tree.js';
import type { EngineEvent } from '../../src/engine/events.js';
import { plainLine } from '../../src/headless/plain-reporter.js';
import { createFixcycleStore } from '../../src/state/store.js';
import { renderTui } from '../tui/render.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

const events: EngineEvent[] = [
  {
    type: 'session',
    sessionId: 'WFS-test-x',
    sessionDir: '/tmp/x',
    repo: '/tmp',
    chain: ['claude'],
    testCommand: 'node --test',
    resumed: false,
  },
  ...(['session', 'context', 'analysis'] as const).map((node) => ({
    type: 'gen' as const,
    node,
    status: 'done' as const,
    detail: `${node} finished`,
  })),
  { type: 'gen', node: 'tasks', status: 'running', detail: 'writing IMPL_PLAN.md' },
];

function storeWith(list: EngineEvent[]) {
  const store = createFixcycleStore();
  for (const e of list) store.getState().apply(e);
  return store;
}

describe('the gen phase tree', () => {
  it('shows phases 1-4 while they run', () => {
    const view = renderTui(<PhaseTree width={100} />, { columns: 110, rows: 40, store: storeWith(events) });
    unmount = view.unmount;
    const text = view.text();
    expect(text).toContain('✓ Phase 2: Test Context Gather context finished');
    expect(text).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Phase 4: Test Task Generate writing IMPL_PLAN.md/);
    expect(text).toContain('○ IMPL-001 test generation');
    // The fix loop's own rows stay below.
    expect(text).toContain('Test run');
  });

  it('collapses phases 1-4 once done, shows each gate round with its findings, and a coverage line per changed file', () => {
    const store = storeWith([
      ...events,
      { type: 'gen', node: 'tasks', status: 'done', detail: '4 tasks' },
      { type: 'gen', node: 'execution', status: 'running', detail: 'from generate' },
      { type: 'gen', node: 'IMPL-001', status: 'done', detail: 'round 2: agent wrote 2 test file(s)', round: 2 },
      {
        type: 'gen',
        node: 'IMPL-001.3',
        status: 'failed',
        detail: 'round 1: 2 critical finding(s)',
        round: 1,
        findings: ['critical export test/a.test.js:3: imports { flatten }'],
      },
      {
        type: 'gen-coverage',
        measured: true,
        files: [
          {
            file: 'src/listutil.js',
            linesBefore: 0,
            linesAfter: 95.5,
            branchesBefore: 0,
            branchesAfter: 80,
            targetLines: 80,
            targetBranches: 70,
          },
        ],
      },
    ]);
    const view = renderTui(<PhaseTree width={100} />, { columns: 110, rows: 40, store });
    unmount = view.unmount;
    const text = view.text();
    expect(text).toContain('✓ Phase 1-4: Test Generation 4 tasks');
    expect(text).not.toContain('Phase 2: Test Context Gather');
    expect(text).toContain('✓ IMPL-001 test generation round 2: agent wrote 2 test file(s)');
    expect(text).toContain('✗ IMPL-001.3 code validation (L0) round 1: 2 critical finding(s)');
    expect(text).toContain('· critical export test/a.test.js:3: imports { flatten }');
    expect(text).toContain('✓ coverage src/listutil.js lines 0% → 95.5% (target 80%), branches 0% → 80% (target 70%)');
  });
});

describe('the gen headless lines', () => {
  it('one line per phase and gate round, findings under it, and the coverage per file', () => {
    expect(
      plainLine({
        type: 'gen',
        node: 'IMPL-001.3',
        status: 'failed',
        detail: 'round 1: 1 critical finding(s)',
        round: 1,
        findings: ['critical no-assertion t.js:5: test "x" asserts nothing'],
      }),
    ).toBe(
      '[IMPL-001.3] failed: round 1: 1 critical finding(s)\n    - critical no-assertion t.js:5: test "x" asserts nothing',
    );
    expect(plainLine({ type: 'gen', node: 'context', status: 'running', detail: 'measuring' })).toBe(
      '[context] measuring...',
    );
    expect(
      plainLine({
        type: 'gen-coverage',
        measured: false,
        files: [],
        reason: 'fixcycle cannot measure coverage for the cargo runner yet',
      }),
    ).toBe('[coverage] not measured: fixcycle cannot measure coverage for the cargo runner yet');
  });
});
