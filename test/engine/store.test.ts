import { describe, expect, it } from 'vitest';
import { createFixcycleStore } from '../../src/state/store.js';
import { RingBuffer } from '../../src/state/ring-buffer.js';

describe('RingBuffer', () => {
  it('keeps the newest lines up to its capacity', () => {
    const ring = new RingBuffer(3);
    ring.pushAll(['1', '2', '3', '4', '5']);
    expect(ring.slice(0, 10)).toEqual(['3', '4', '5']);
    expect(ring.total).toBe(5);
    expect(ring.at(0)).toBe('3');
    expect(ring.at(3)).toBeUndefined();
  });
});

describe('the store', () => {
  it('applies engine events', () => {
    const store = createFixcycleStore();
    const { apply } = store.getState();
    apply({
      type: 'session',
      sessionId: 'WFS-test-x',
      sessionDir: '/d',
      repo: '/r',
      chain: ['a', 'b'],
      testCommand: 'node --test',
      resumed: false,
    });
    apply({ type: 'phase', phase: 'test', status: 'running', iteration: 0 });
    apply({ type: 'strategy', iteration: 1, strategy: 'surgical', reason: 'regressed' });
    apply({
      type: 'agent',
      iteration: 1,
      agent: 'a',
      role: 'analyze',
      status: 'finished',
      classification: 'rate_limited',
    });
    apply({ type: 'await-approval', passRate: 96, failures: [] });
    const s = store.getState();
    expect(s).toMatchObject({
      sessionId: 'WFS-test-x',
      chain: ['a', 'b'],
      strategy: { strategy: 'surgical' },
      awaitingApproval: { passRate: 96 },
    });
    expect(s.phases.test.status).toBe('running');
    expect(s.agentFailures).toEqual([{ agent: 'a', classification: 'rate_limited', detail: undefined }]);
  });

  it('batches output into one version bump per flush', async () => {
    const store = createFixcycleStore({ flushMs: 10 });
    let renders = 0;
    store.subscribe((s, prev) => {
      if (s.outputVersion !== prev.outputVersion) renders++;
    });
    for (let i = 0; i < 1000; i++) store.getState().apply({ type: 'output', lines: [`line ${i}`] });
    await new Promise((r) => setTimeout(r, 30));
    expect(renders).toBe(1);
    expect(store.getState().output.size).toBe(1000);
  });
});
