import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readIterationState } from '../../src/engine/session/state-file.js';
import { normalizeIterationState } from '../../src/engine/session/state-normalize.js';

function stateFile(content: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'fixcycle-state-')), '.workflow/active/WFS-test-foreign/.process');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'iteration-state.json');
  writeFileSync(file, content);
  return file;
}

describe('reading iteration-state.json', () => {
  it("reads the command document's shape (nested test_results)", () => {
    const read = normalizeIterationState(
      {
        session_id: 'WFS-test-user-auth',
        current_task: 'IMPL-002',
        current_iteration: 2,
        max_iterations: 5,
        started_at: '2025-10-17T10:00:00Z',
        iterations: [
          {
            iteration: 1,
            test_results: { total: 10, passed: 7, failed: 3, failures: ['test1', 'test2', 'test3'] },
            analysis_file: '.process/iteration-1-analysis.md',
            fix_task: 'IMPL-fix-1',
            result: 'partial_success',
          },
        ],
        status: 'active',
        next_action: 'execute_fix_task',
      },
      'fallback',
    );
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.state).toMatchObject({ session_id: 'WFS-test-user-auth', max_iterations: 5, current_iteration: 2 });
    expect(read.state.iterations[0]).toMatchObject({ pass_rate: 70, failed_tests: ['test1', 'test2', 'test3'] });
  });

  it("reads the phase document's shape (flat pass_rate, no session id)", () => {
    const read = normalizeIterationState(
      {
        current_task: 'IMPL-002',
        selected_strategy: 'aggressive',
        next_action: 'execute_fix_task',
        iterations: [{ iteration: 1, pass_rate: 70, strategy: 'conservative', failed_tests: ['a', 'b'] }],
      },
      'WFS-test-from-folder',
    );
    expect(read.ok && read.state).toMatchObject({
      session_id: 'WFS-test-from-folder',
      selected_strategy: 'aggressive',
      current_iteration: 1,
      max_iterations: 10,
      stuck_tests: [],
    });
  });

  it('keeps fields it does not know, so another tool loses nothing', () => {
    const read = normalizeIterationState({ iterations: [], custom_tool_field: { x: 1 } }, 'id');
    expect(read.ok && read.state.custom_tool_field).toEqual({ x: 1 });
  });

  it('explains in one line what is wrong with a file it cannot use', async () => {
    const corrupt = await readIterationState(stateFile('{"iterations": [ {"iteration": 1, '));
    expect(corrupt).toMatchObject({ ok: false, error: expect.stringMatching(/is not valid JSON \(/) });
    const foreign = await readIterationState(stateFile('{"iterations": "many"}'));
    expect(foreign).toMatchObject({
      ok: false,
      error: expect.stringMatching(/is not an iteration state this version can use: iterations:/),
    });
    const missing = await readIterationState('/nonexistent/iteration-state.json');
    expect(missing).toMatchObject({ ok: false, error: expect.stringMatching(/does not exist/) });
  });

  it('takes the session id from the folder', async () => {
    const read = await readIterationState(stateFile('{"iterations": []}'));
    expect(read.ok && read.state.session_id).toBe('WFS-test-foreign');
  });
});
