import { afterEach, describe, expect, it } from 'vitest';
import { PhaseTree } from '../../src/components/phase-tree.js';
import { coverageBar } from '../../src/components/team-rows.js';
import type { EngineEvent } from '../../src/engine/events.js';
import { createFixcycleStore } from '../../src/state/store.js';
import { renderTui } from '../tui/render.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

const events: EngineEvent[] = [
  {
    type: 'session',
    sessionId: 'tst-change-20261123',
    sessionDir: '/tmp/x',
    repo: '/tmp',
    chain: ['claude'],
    testCommand: 'node --test',
    resumed: false,
  },
  {
    type: 'team-task',
    id: 'STRATEGY-001',
    role: 'strategist',
    layer: '',
    wave: 1,
    status: 'completed',
    detail: 'strategy/test-strategy.md',
  },
  {
    type: 'team-task',
    id: 'TESTGEN-001',
    role: 'generator',
    layer: 'L1',
    wave: 2,
    status: 'completed',
    detail: '1 test file(s): test/slug.test.js',
  },
  {
    type: 'team-task',
    id: 'TESTGEN-002',
    role: 'generator',
    layer: 'L2',
    wave: 2,
    status: 'failed',
    detail: 'no agent answered',
  },
  {
    type: 'team-task',
    id: 'TESTRUN-001',
    role: 'executor',
    layer: 'L1',
    wave: 3,
    status: 'running',
    detail: 'GC round 1/3',
  },
  {
    type: 'team-task',
    id: 'TESTRUN-002',
    role: 'executor',
    layer: 'L2',
    wave: 3,
    status: 'skipped',
    detail: 'dependency TESTGEN-002 failed',
  },
  { type: 'team-coverage', layer: 'L1', round: 1, passRate: 1, coverage: 48.1, target: 80 },
  {
    type: 'team-discoveries',
    total: 4,
    malformed: 1,
    latest: [
      'test_generated TESTGEN-001: {"file":"test/slug.test.js"}',
      'coverage_gap TESTRUN-001: {"file":"src/math/stats.js"}',
    ],
  },
];

describe('the team phase tree', () => {
  it('shows the waves with each task role, layer and status, a coverage bar per layer, and the discovery board', () => {
    const store = createFixcycleStore();
    for (const e of events) store.getState().apply(e);
    const view = renderTui(<PhaseTree width={110} />, { columns: 120, rows: 50, store });
    unmount = view.unmount;
    const text = view.text();
    expect(text).toContain('✓ Wave 1');
    expect(text).toContain('✓ STRATEGY-001 strategist strategy/test-strategy.md');
    expect(text).toMatch(/✗ Wave 2/);
    expect(text).toContain('✗ TESTGEN-002 generator L2 no agent answered');
    expect(text).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] TESTRUN-001 executor L1 GC round 1\/3/);
    expect(text).toContain('TESTRUN-002 executor L2 dependency TESTGEN-002 failed');
    expect(text).toContain(`coverage L1 ${coverageBar(48.1)} 48.1% / 80% pass 100.0% · GC round 1/3`);
    expect(text).toContain('Discovery board: 4 1 malformed line(s) skipped');
    expect(text).toContain('· coverage_gap TESTRUN-001: {"file":"src/math/stats.js"}');
  });

  it('at 60 columns folds into what runs now and every task with a short id, and each layer against its target', () => {
    const store = createFixcycleStore();
    for (const e of events) store.getState().apply(e);
    const view = renderTui(<PhaseTree width={60} compact />, { columns: 60, rows: 20, store });
    unmount = view.unmount;
    const lines = view.text().split('\n');
    expect(lines[0]).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Wave 3\/3 TESTRUN-001 executor L1 GC round 1\/3$/);
    expect(lines[1]).toMatch(/^✓S1 ✓G1 ✗G2 [⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]R1 –R2 · L1 48\.1%\/80%$/);
  });

  it('draws coverage bars of ten cells', () => {
    expect(coverageBar(48.1)).toBe('[█████░░░░░]');
    expect(coverageBar(100)).toBe('[██████████]');
    expect(coverageBar(null)).toBe('[░░░░░░░░░░]');
  });
});
