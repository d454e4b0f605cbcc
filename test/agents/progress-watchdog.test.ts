import { describe, expect, it } from 'vitest';
import type { AgentAdapter, AgentCommand } from '../../src/engine/agents/agent.js';
import { codexProgress } from '../../src/engine/agents/adapters/codex-activity.js';
import { geminiProgress } from '../../src/engine/agents/adapters/gemini-stream.js';
import { messageProgress } from '../../src/engine/agents/adapters/message-stream.js';
import { opencodeProgress } from '../../src/engine/agents/adapters/opencode-activity.js';
import { interpretCliRun } from '../../src/engine/agents/classify.js';
import { runAgent } from '../../src/engine/agents/run-agent.js';

const step = (toolsStarted = 0, toolsEnded = 0) => ({ toolsStarted, toolsEnded });

describe('which lines are the model at work', () => {
  it('claude and qwen: tokens, messages, tool calls and results; not system events, session news or SDK logs', () => {
    expect(
      messageProgress('{"type":"stream_event","event":{"type":"content_block_delta","delta":{"text":"a"}}}', 'stdout'),
    ).toEqual(step());
    expect(
      messageProgress(
        '{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Bash"},{"type":"text","text":"x"}]}}',
        'stdout',
      ),
    ).toEqual(step(1));
    expect(
      messageProgress('{"type":"user","message":{"content":[{"type":"tool_result","content":"ok"}]}}', 'stdout'),
    ).toEqual(step(0, 1));
    expect(messageProgress('{"type":"result","subtype":"success"}', 'stdout')).toEqual(step());
    for (const line of [
      '{"type":"system","subtype":"init","session_id":"s"}',
      '{"type":"system","subtype":"api_retry","attempt":1}',
      '{"type":"system","subtype":"retry"}',
      '{"type":"stream_event","event":{"type":"goal_state","goal_state":{}}}',
      '[log_bf8e17] connection failed - error; no more retries left',
    ]) {
      expect(messageProgress(line, 'stdout'), line).toBeNull();
    }
    expect(messageProgress('{"type":"result"}', 'stderr')).toBeNull();
  });

  it('gemini, codex, opencode: their events of the model, not their errors and logs', () => {
    expect(geminiProgress('{"type":"message","role":"assistant","content":"a","delta":true}', 'stdout')).toEqual(
      step(),
    );
    expect(geminiProgress('{"type":"tool_use","tool_name":"run_shell_command"}', 'stdout')).toEqual(step(1));
    expect(geminiProgress('{"type":"tool_result","status":"success"}', 'stdout')).toEqual(step(0, 1));
    expect(geminiProgress('{"type":"init"}', 'stdout')).toBeNull();
    expect(geminiProgress('Attempt 1 failed with status 429. Retrying with backoff...', 'stderr')).toBeNull();
    expect(
      codexProgress('{"type":"item.started","item":{"type":"command_execution","command":"npm test"}}', 'stdout'),
    ).toEqual(step(1));
    expect(codexProgress('{"type":"item.completed","item":{"type":"command_execution"}}', 'stdout')).toEqual(
      step(0, 1),
    );
    expect(codexProgress('{"type":"item.completed","item":{"type":"reasoning"}}', 'stdout')).toEqual(step());
    expect(codexProgress('{"type":"error","message":"Reconnecting... 1/5"}', 'stdout')).toBeNull();
    expect(codexProgress('{"type":"turn.started"}', 'stdout')).toBeNull();
    expect(opencodeProgress('{"type":"text","part":{"text":"a"}}', 'stdout')).toEqual(step());
    expect(opencodeProgress('{"type":"error","error":{"name":"APIError"}}', 'stdout')).toBeNull();
    expect(opencodeProgress('timestamp=1 level=INFO message=stream small=false', 'stderr')).toBeNull();
  });
});

/** A CLI run by `node -e script` whose lines `model`, `tool`, `done` are progress; everything else is chatter. */
function scripted(script: string, limits: Pick<AgentCommand, 'stallMs' | 'toolStallMs'>): AgentAdapter {
  return {
    name: 'scripted',
    buildCommand: () => ({ argv: [process.execPath, '-e', script], stdin: false, ...limits }),
    progress: (line) => (line === 'model' ? step() : line === 'tool' ? step(1) : line === 'done' ? step(0, 1) : null),
    interpret: (raw) => interpretCliRun('scripted', raw, { structured: true, finalText: raw.stdout }),
  };
}

const run = (adapter: AgentAdapter) =>
  runAgent(
    { spec: { name: adapter.name, adapter: adapter.name, command: [] }, adapter },
    { role: 'fix', prompt: '', cwd: process.cwd(), env: {}, timeoutMs: 30_000 },
  );

describe('the progress watchdog', () => {
  it('ends a call whose CLI keeps printing but whose model makes no progress, and reads why from what it printed', async () => {
    const chatter =
      "console.log('model'); setInterval(() => console.error('conn: attempt failed: ECONNREFUSED'), 100);";
    const started = Date.now();
    const result = await run(scripted(chatter, { stallMs: 1000 }));
    expect(Date.now() - started).toBeLessThan(6000);
    expect(result.timedOut).toBe(true);
    expect(result.classification).toBe('failed');
    expect(result.detail).toMatch(
      /^API unreachable: conn: attempt failed: ECONNREFUSED \(no progress of the model for 1 s; killed\)$/,
    );
  });

  it('gives a tool the model called the tool limit, and the model its own limit again once the tool ended', async () => {
    const longTool =
      "console.log('model'); console.log('tool'); setTimeout(() => { console.log('done'); console.log('model'); }, 2500);";
    expect((await run(scripted(longTool, { stallMs: 1000, toolStallMs: 10_000 }))).classification).toBe('ok');
    const silentAfterTool =
      "console.log('tool'); setTimeout(() => console.log('done'), 200); setTimeout(() => {}, 20_000);";
    const stalled = await run(scripted(silentAfterTool, { stallMs: 1000, toolStallMs: 10_000 }));
    expect(stalled.classification).toBe('timeout');
    expect(stalled.detail).toMatch(/^stalled: no progress of the model for 1 s/);
  });
});
