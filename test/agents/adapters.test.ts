import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRole } from '../../src/engine/agents/agent.js';
import { extractPlan } from '../../src/engine/agents/plan.js';
import { runAgent } from '../../src/engine/agents/run-agent.js';
import { ANALYSIS_DENIED_TOOLS, FIX_DENIED_TOOLS } from '../../src/engine/agents/adapters/claude.js';
import { HEADLESS_PLAN } from '../../src/engine/agents/adapters/qwen.js';
import { builtIn, cleanup, fakeEnv, makeRepo, readLog, tempDir } from './helpers.js';

const FOLLOW = 'Follow the instructions above.';
const NO_WRITES = ANALYSIS_DENIED_TOOLS.join(',');
const NO_WORKTREES = FIX_DENIED_TOOLS.join(',');

/** Each CLI: the exact arguments per role, what its reports add up to, and when its rate limit says it resets. */
const CLIS = [
  {
    name: 'claude',
    argv: {
      analyze: [
        '-p',
        '--output-format',
        'stream-json',
        '--verbose',
        '--include-partial-messages',
        '--permission-mode',
        'default',
        '--disallowedTools',
        NO_WRITES,
      ],
      fix: [
        '-p',
        '--output-format',
        'stream-json',
        '--verbose',
        '--include-partial-messages',
        '--permission-mode',
        'acceptEdits',
        '--disallowedTools',
        NO_WORKTREES,
      ],
    },
    promptOn: 'stdin',
    tokens: 6540,
    costUsd: 0.0421,
    resetInMs: 7200_000,
    rateLimitExit: 1,
  },
  {
    name: 'gemini',
    argv: {
      analyze: ['-o', 'stream-json', '--approval-mode', 'default', '--skip-trust', '-p', FOLLOW],
      fix: ['-o', 'stream-json', '--approval-mode', 'yolo', '--skip-trust', '-p', FOLLOW],
    },
    promptOn: 'stdin',
    tokens: 25113,
    resetInMs: 42_000,
    rateLimitExit: 173,
  },
  {
    name: 'codex',
    argv: {
      analyze: ['exec', '--json', '--sandbox', 'read-only', '--disable', 'unbounded_connection_retries', '-'],
      fix: ['exec', '--json', '--sandbox', 'workspace-write', '--disable', 'unbounded_connection_retries', '-'],
    },
    promptOn: 'stdin',
    tokens: 24885,
    resetInMs: 72 * 60_000,
  },
  {
    name: 'qwen',
    argv: {
      analyze: [
        '-o',
        'stream-json',
        '--include-partial-messages',
        '--approval-mode',
        'plan',
        '--append-system-prompt',
        HEADLESS_PLAN,
        '-p',
        FOLLOW,
      ],
      fix: ['-o', 'stream-json', '--include-partial-messages', '--approval-mode', 'yolo', '-p', FOLLOW],
    },
    promptOn: 'stdin',
    tokens: 1110,
    resetInMs: undefined,
  },
  {
    name: 'opencode',
    argv: {
      analyze: ['run', '--format', 'json', '--agent', 'plan', '--print-logs', '--log-level', 'INFO'],
      fix: ['run', '--format', 'json', '--agent', 'build', '--print-logs', '--log-level', 'INFO'],
    },
    promptOn: 'stdin',
    tokens: 17512,
    costUsd: 0.0123,
    resetInMs: 30_000,
  },
  {
    name: 'aider',
    argv: {
      fix: [
        '--chat-history-file',
        expect.stringMatching(/aider\/chat\.history\.md$/),
        '--input-history-file',
        expect.stringMatching(/aider\/input\.history$/),
        '--yes-always',
        '--no-auto-commits',
        '--no-gitignore',
        '--no-pretty',
        '--no-stream',
        '--no-check-update',
        '--no-show-release-notes',
        '--analytics-disable',
        '--no-detect-urls',
        '--map-tokens',
        '0',
        '--message',
      ],
    },
    promptOn: 'argument',
    tokens: undefined,
    resetInMs: undefined,
  },
] as const;

const PROMPT = 'Find why test/math.test.js::adds two numbers fails.\nAnswer with the JSON plan.';

let repo: string;
let logs: string;

beforeAll(() => {
  // Codex's caps depend on the user's own config: none here.
  process.env.CODEX_HOME = tempDir('fixcycle-codex-home-');
  repo = makeRepo();
  logs = tempDir('fixcycle-logs-');
});
afterAll(() => cleanup(repo, logs));

let n = 0;
async function call(name: string, role: AgentRole, env: Record<string, string> = {}, timeoutMs = 20_000) {
  const log = join(logs, `${name}-${++n}.jsonl`);
  const result = await runAgent(builtIn(name), {
    role,
    prompt: PROMPT,
    cwd: repo,
    env: fakeEnv(log, { FIXCYCLE_ROLE: role, ...env }),
    timeoutMs,
  });
  return { result, calls: readLog(log) };
}

describe.each(CLIS)('the $name adapter against its stand-in', (cli) => {
  const roles = Object.keys(cli.argv) as AgentRole[];

  it.each(roles)(
    'runs the documented command for %s, with the prompt where the CLI reads it, in the repository',
    async (role) => {
      const { calls } = await call(cli.name, role);
      expect(calls).toHaveLength(1);
      const logged = calls[0]!;
      const expected = cli.argv[role as keyof typeof cli.argv]!;
      if (cli.promptOn === 'stdin') {
        expect(logged.argv).toEqual(expected);
        expect(logged.stdin).toBe(PROMPT);
      } else {
        expect(logged.argv).toEqual([...expected, PROMPT]);
        expect(logged.stdin).toBe('');
      }
      expect(logged.role).toBe(role);
      expect(realpathSync(logged.cwd)).toBe(realpathSync(repo));
    },
  );

  if (roles.includes('analyze')) {
    it('reads the plan, tokens and cost from a successful analysis', async () => {
      const { result } = await call(cli.name, 'analyze');
      expect(result).toMatchObject({ classification: 'ok', exitCode: 0, agent: cli.name, role: 'analyze' });
      const plan = extractPlan(result.finalText);
      expect(plan.ok && plan.plan.modification_points).toEqual(['src/math.js:add:1-3']);
      expect(result.tokens).toBe(cli.tokens);
      expect(result.costUsd).toBe('costUsd' in cli ? cli.costUsd : undefined);
    });
  }

  it('applies a successful fix in the repository', async () => {
    const file = `src/fixed-by-${cli.name}.js`;
    const { result } = await call(cli.name, 'fix', {
      FAKE_CLI_EDIT: JSON.stringify([{ path: file, content: 'export const fixed = true;\n' }]),
    });
    expect(result.classification).toBe('ok');
    expect(readFileSync(join(repo, file), 'utf8')).toContain('fixed = true');
  });

  it('classifies a rate limit whatever the exit code says, with the announced reset time', async () => {
    const before = Date.now();
    const { result } = await call(cli.name, roles[0]!, { FAKE_CLI_MODE: 'rate_limit' });
    expect(result.exitCode).toBe('rateLimitExit' in cli ? cli.rateLimitExit : 0);
    expect(result.classification).toBe('rate_limited');
    expect(result.detail).toMatch(/^rate-limited: /);
    if (cli.resetInMs === undefined) expect(result.retryAt).toBeUndefined();
    else {
      expect(result.retryAt).toBeGreaterThanOrEqual(before + cli.resetInMs - 2000);
      expect(result.retryAt).toBeLessThanOrEqual(Date.now() + cli.resetInMs + 2000);
    }
  });

  it('classifies an authentication error', async () => {
    const { result } = await call(cli.name, roles[0]!, { FAKE_CLI_MODE: 'auth' });
    expect(result.classification).toBe('auth_error');
    expect(result.detail).toMatch(new RegExp(`not authenticated: .*log in to ${cli.name}`));
  });

  it('does not take garbage for an answer', async () => {
    const { result } = await call(cli.name, roles[0]!, { FAKE_CLI_MODE: 'garbage' });
    expect(result.classification).toBe('failed');
    expect(result.detail).toBeTruthy();
  });

  it('kills a CLI that hangs at the timeout', async () => {
    const started = Date.now();
    const { result } = await call(cli.name, roles[0]!, { FAKE_CLI_MODE: 'timeout' }, 700);
    expect(result).toMatchObject({ classification: 'timeout', timedOut: true });
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('adapter options from the config', () => {
  it('passes the model and the extra arguments before the stdin marker', async () => {
    const agent = builtIn('codex');
    const log = join(logs, 'codex-model.jsonl');
    await runAgent(
      { ...agent, spec: { ...agent.spec, model: 'gpt-5-codex', command: ['--skip-git-repo-check'] } },
      { role: 'analyze', prompt: PROMPT, cwd: repo, env: fakeEnv(log), timeoutMs: 20_000 },
    );
    expect(readLog(log)[0]!.argv).toEqual([
      'exec',
      '--json',
      '--sandbox',
      'read-only',
      '--disable',
      'unbounded_connection_retries',
      '--model',
      'gpt-5-codex',
      '--skip-git-repo-check',
      '-',
    ]);
  });

  it('reports a missing CLI as not found', async () => {
    const result = await runAgent(builtIn('claude'), {
      role: 'analyze',
      prompt: PROMPT,
      cwd: repo,
      env: { PATH: logs },
      timeoutMs: 5000,
    });
    expect(result.classification).toBe('not_found');
    expect(result.detail).toMatch(/claude: command not found/);
  });
});
