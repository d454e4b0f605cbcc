import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AgentActivity, AgentAdapter } from '../../src/engine/agents/agent.js';
import { codexAdapter } from '../../src/engine/agents/adapters/codex.js';
import { opencodeAdapter } from '../../src/engine/agents/adapters/opencode.js';
import { opencodeActivity } from '../../src/engine/agents/adapters/opencode-activity.js';
import { extractPlan } from '../../src/engine/agents/plan.js';

/** What codex 0.169.0 and opencode 1.18.33 really printed (see test/fixtures/real-cli-output/README.md). */
function fixture(cli: string, name: string, optional = false): string {
  const url = new URL(`../fixtures/real-cli-output/${cli}/${name}`, import.meta.url);
  if (optional && !existsSync(url)) return '';
  return readFileSync(url, 'utf8');
}

function activities(adapter: AgentAdapter, stdout: string, stderr = ''): AgentActivity[] {
  const lines = [
    ...stdout.split('\n').map((l) => [l, 'stdout'] as const),
    ...stderr.split('\n').map((l) => [l, 'stderr'] as const),
  ];
  return lines.flatMap(([line, stream]) => adapter.activity!(line, stream));
}

function interpret(adapter: AgentAdapter, cli: string, name: string, exitCode: number) {
  return adapter.interpret({
    exitCode,
    timedOut: false,
    stdout: fixture(cli, `${name}.stdout.jsonl`),
    stderr: fixture(cli, `${name}.stderr.txt`, true),
  });
}

describe('codex 0.169 --json as activities', () => {
  it('shows the command it runs, the file it patches, its answer and the tokens', () => {
    expect(activities(codexAdapter, fixture('codex', 'fix-exec-and-apply-patch.stdout.jsonl'))).toEqual([
      { kind: 'tool', tool: 'exec_command', action: 'run', target: 'cat src/math.js' },
      { kind: 'tool', tool: 'apply_patch', action: 'edit', target: '/tmp/ab/repo/src/math.js' },
      { kind: 'text', text: 'Fixed add() in src/math.js.' },
      { kind: 'usage', tokens: 480 },
    ]);
  });

  it('turns each Reconnecting error into a retry and the failed turn into an error', () => {
    const seen = activities(codexAdapter, fixture('codex', '429ra2.stdout.jsonl'));
    expect(seen).toEqual([
      { kind: 'retry', detail: 'exceeded retry limit, last status: 429 Too Many Requests' },
      { kind: 'error', detail: 'exceeded retry limit, last status: 429 Too Many Requests' },
    ]);
  });

  it('shows nothing for writes its read-only sandbox refused, and reads the plan', () => {
    const stdout = fixture('codex', 'analyze-writes-refused.stdout.jsonl');
    expect(activities(codexAdapter, stdout).filter((a) => a.kind === 'tool')).toEqual([]);
    const result = codexAdapter.interpret({
      exitCode: 0,
      timedOut: false,
      stdout,
      stderr: fixture('codex', 'analyze-writes-refused.stderr.txt'),
    });
    expect(result.classification).toBe('ok');
    const plan = extractPlan(result.finalText);
    expect(plan.ok && plan.plan.modification_points).toEqual(['src/math.js:add:2']);
  });
});

describe('codex 0.169 failures as classifications', () => {
  it.each([
    ['429', 'rate_limited', /rate-limited: exceeded retry limit, last status: 429/],
    ['429ra2', 'rate_limited', /429 Too Many Requests/],
    ['quota', 'rate_limited', /Quota exceeded/],
    ['cap', 'rate_limited', /Selected model is at capacity/],
    ['401', 'auth_error', /not authenticated: unexpected status 401 Unauthorized: Incorrect API key/],
    ['500', 'failed', /^API server error: We’re currently experiencing high demand/],
    ['refused', 'failed', /^API unreachable: Connection failed: error sending request/],
    ['drop', 'failed', /^API unreachable: stream disconnected before completion/],
  ] as const)('%s -> %s', (name, classification, detail) => {
    const result = interpret(codexAdapter, 'codex', name, 1);
    expect(result.classification).toBe(classification);
    expect(result.detail).toMatch(detail);
    expect(result.detail).not.toMatch(/Reconnecting/);
  });

  it('reads a missing API key variable as an authentication problem', () => {
    const stdout = [
      '{"type":"thread.started","thread_id":"t"}',
      '{"type":"turn.started"}',
      '{"type":"error","message":"Missing environment variable: `STUB_API_KEY`."}',
      '{"type":"turn.failed","error":{"message":"Missing environment variable: `STUB_API_KEY`."}}',
    ].join('\n');
    const result = codexAdapter.interpret({ exitCode: 1, timedOut: false, stdout, stderr: '' });
    expect(result).toMatchObject({ classification: 'auth_error' });
    expect(result.detail).toMatch(/STUB_API_KEY.*set the API key/);
  });
});

describe('opencode 1.18 --format json as activities', () => {
  it('shows the file it reads, the edit, the command, its answer and tokens per step', () => {
    const seen = activities(
      opencodeAdapter,
      fixture('opencode', 'fix-read-edit-bash.stdout.jsonl'),
      fixture('opencode', 'fix-read-edit-bash.stderr-info.txt'),
    );
    expect(seen.filter((a) => a.kind !== 'usage')).toEqual([
      { kind: 'tool', tool: 'read', action: 'read', target: '/tmp/ab/repo/src/math.js' },
      { kind: 'tool', tool: 'edit', action: 'edit', target: '/tmp/ab/repo/src/math.js' },
      { kind: 'tool', tool: 'bash', action: 'run', target: 'node -e 1' },
      { kind: 'text', text: 'Fixed add() in src/math.js.' },
    ]);
    expect(seen.filter((a) => a.kind === 'usage')).toHaveLength(4);
    expect(seen).toContainEqual({ kind: 'usage', tokens: 120, costUsd: 0 });
  });

  it('shows the tools a read-only analysis was refused', () => {
    const seen = activities(opencodeAdapter, fixture('opencode', 'analyze-writes-denied.stdout.jsonl'));
    expect(seen.filter((a) => a.kind === 'tool')).toEqual([
      { kind: 'tool', tool: 'bash', action: 'run', denied: true },
      { kind: 'tool', tool: 'edit', action: 'edit', denied: true },
    ]);
  });

  it('turns each failed model request it logs on stderr into a retry', () => {
    const seen = activities(opencodeAdapter, '', fixture('opencode', '429ra2.stderr.txt'));
    expect(seen).toHaveLength(6);
    expect(seen[0]).toEqual({ kind: 'retry', detail: 'stub error 429' });
  });

  it('does not count the failed session-title request as a retry of the answer', () => {
    const title =
      'timestamp=2026-11-23T06:29:00.000Z level=ERROR run=1 message="stream error" providerID=gateway modelID=m session.id=ses_1 small=true agent=title mode=primary error.error="AI_APICallError: Incorrect API key provided"';
    expect(opencodeActivity(title, 'stderr')).toEqual([]);
  });
});

describe('opencode 1.18 outcomes as classifications', () => {
  it('reads a 429 with its retry-after', () => {
    const result = interpret(opencodeAdapter, 'opencode', '429ra2', 1);
    expect(result.classification).toBe('rate_limited');
    expect(result.detail).toMatch(/stub error 429.*status 429/);
  });

  it('reads a 401', () => {
    expect(interpret(opencodeAdapter, 'opencode', '401', 1)).toMatchObject({ classification: 'auth_error' });
  });

  it('reads a run stopped before its final error line from the errors it logged', () => {
    const stderr = fixture('opencode', '401.stderr.txt')
      .split('\n')
      .filter((l) => l.includes('stream error'))
      .join('\n');
    const result = opencodeAdapter.interpret({ exitCode: null, timedOut: false, stdout: '', stderr });
    expect(result.classification).toBe('auth_error');
    expect(result.detail).toMatch(/Incorrect API key provided/);
  });

  it('does not take exit 0 after a refused permission for done', () => {
    const result = interpret(opencodeAdapter, 'opencode', 'reject', 0);
    expect(result.classification).toBe('failed');
    expect(result.detail).toMatch(/permission .*external_directory/);
  });

  it('fails a run whose agent was not found, because opencode then ran its default agent', () => {
    const result = interpret(opencodeAdapter, 'opencode', 'misspelt-agent', 0);
    expect(result.classification).toBe('failed');
    expect(result.detail).toMatch(/no agent "plann"/);
  });

  it('accepts a successful fix with its tokens and cost', () => {
    const result = opencodeAdapter.interpret({
      exitCode: 0,
      timedOut: false,
      stdout: fixture('opencode', 'fix-read-edit-bash.stdout.jsonl'),
      stderr: fixture('opencode', 'fix-read-edit-bash.stderr-info.txt'),
    });
    expect(result).toMatchObject({
      classification: 'ok',
      finalText: 'Fixed add() in src/math.js.',
      tokens: 480,
      costUsd: 0,
    });
  });
});
