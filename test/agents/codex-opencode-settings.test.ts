import { describe, expect, it } from 'vitest';
import type { AgentAdapter } from '../../src/engine/agents/agent.js';
import { codexAdapter } from '../../src/engine/agents/adapters/codex.js';
import { codexCaps, parseCodexConfig } from '../../src/engine/agents/adapters/codex-config.js';
import { opencodeEnv } from '../../src/engine/agents/adapters/opencode-env.js';
import { runAgent } from '../../src/engine/agents/run-agent.js';
import { cleanup, tempDir } from './helpers.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const GATEWAY = `model = "gpt-5.5"
model_provider = "gateway"

[features]
plugins = false

[model_providers.gateway]
name = "Company gateway"
base_url = "https://gateway.example/v1"
env_key = "GATEWAY_API_KEY"
wire_api = "responses"
`;

describe("codex caps from the user's config", () => {
  it('caps the retries of their own provider and turns off unbounded connection retries', () => {
    expect(codexCaps(parseCodexConfig(GATEWAY))).toEqual([
      '-c',
      'model_providers.gateway.request_max_retries=2',
      '-c',
      'model_providers.gateway.stream_max_retries=1',
      '--disable',
      'unbounded_connection_retries',
    ]);
  });

  it('leaves alone what the user set, and the built-in provider codex refuses to have overridden', () => {
    const own = `${GATEWAY}stream_max_retries = 7  # mine\n\n[features]\nunbounded_connection_retries = true\n`;
    expect(codexCaps(parseCodexConfig(own))).toEqual(['-c', 'model_providers.gateway.request_max_retries=2']);
    expect(codexCaps(parseCodexConfig('model = "gpt-5.5"\nopenai_base_url = "http://127.0.0.1:9/v1"\n'))).toEqual([
      '--disable',
      'unbounded_connection_retries',
    ]);
  });

  it("follows the active profile's provider", () => {
    const config = parseCodexConfig(
      `profile = "work"\n\n[profiles.work]\nmodel_provider = "corp"\n\n[model_providers.corp]\nbase_url = "https://corp/v1"\n\n[model_providers."gateway"]\nbase_url = "x"\n`,
    );
    expect(config.provider).toBe('corp');
    expect(codexCaps(config)).toContain('model_providers.corp.stream_max_retries=1');
  });

  it('reads the config from CODEX_HOME and puts the caps before the agent’s own arguments', () => {
    const home = tempDir('fixcycle-codex-home-');
    writeFileSync(join(home, 'config.toml'), GATEWAY);
    try {
      const { argv, stallMs, maxRetries } = codexAdapter.buildCommand(
        { name: 'codex', adapter: 'codex', command: ['-c', 'model_providers.gateway.stream_max_retries=3'] },
        'fix',
        { privateDir: home, userEnv: { CODEX_HOME: home } },
      );
      expect(argv).toEqual([
        'codex',
        'exec',
        '--json',
        '--sandbox',
        'workspace-write',
        '-c',
        'model_providers.gateway.request_max_retries=2',
        '-c',
        'model_providers.gateway.stream_max_retries=1',
        '--disable',
        'unbounded_connection_retries',
        '-c',
        'model_providers.gateway.stream_max_retries=3',
        '-',
      ]);
      expect({ stallMs, maxRetries }).toEqual({ stallMs: 40_000, maxRetries: 1 });
    } finally {
      cleanup(home);
    }
  });
});

describe('opencode permissions', () => {
  it('denies the writing tools in analysis over whatever the user allows', () => {
    expect(
      JSON.parse(
        opencodeEnv('analyze', { OPENCODE_PERMISSION: '{"bash":{"git *":"allow"},"webfetch":"deny"}' })
          .OPENCODE_PERMISSION!,
      ),
    ).toEqual({ bash: 'deny', edit: 'deny', task: 'deny', webfetch: 'deny' });
    expect(JSON.parse(opencodeEnv('analyze', { OPENCODE_PERMISSION: '"allow"' }).OPENCODE_PERMISSION!)).toEqual({
      '*': 'allow',
      bash: 'deny',
      edit: 'deny',
      task: 'deny',
    });
    expect(JSON.parse(opencodeEnv('analyze', { OPENCODE_PERMISSION: 'not json' }).OPENCODE_PERMISSION!)).toEqual({
      bash: 'deny',
      edit: 'deny',
      task: 'deny',
    });
  });

  it("keeps the user's permissions for the fix", () => {
    expect(opencodeEnv('fix', { OPENCODE_PERMISSION: '{"bash":"ask"}' })).toEqual({});
  });
});

describe('a CLI that retries for ever', () => {
  it('is stopped once it reports more retries than its adapter allows, and classified from what it said', async () => {
    const script = "let n = 0; setInterval(() => console.log('retry ' + ++n + ': 429 Too Many Requests'), 50);";
    const adapter: AgentAdapter = {
      name: 'retrier',
      buildCommand: () => ({ argv: [process.execPath, '-e', script], stdin: false, maxRetries: 2 }),
      activity: (line) => (line.startsWith('retry') ? [{ kind: 'retry', detail: line }] : []),
      interpret: (raw) => ({
        classification: raw.stdout.includes('429') ? 'rate_limited' : 'failed',
        detail: 'rate-limited: 429 Too Many Requests',
        finalText: '',
      }),
    };
    const seen: string[] = [];
    const result = await runAgent(
      { spec: { name: 'retrier', adapter: 'retrier', command: [] }, adapter },
      {
        role: 'analyze',
        prompt: '',
        cwd: process.cwd(),
        env: {},
        timeoutMs: 30_000,
        onActivity: (a) => seen.push(a.kind),
      },
    );
    expect(result.classification).toBe('rate_limited');
    expect(result.detail).toBe(
      'rate-limited: 429 Too Many Requests (stopped after 3 attempts; the CLI would go on retrying)',
    );
    expect(seen.slice(0, 3)).toEqual(['retry', 'retry', 'retry']);
    expect(result.stdout.split('\n').length).toBeLessThan(10);
  });

  it('counts a model request that got no answer before the next began as a silent retry, but not the steps of a working call', async () => {
    // opencode logs each main request on stderr; a working step answers on stdout before the next request.
    const silent = "let n = 0; setInterval(() => console.error('level=INFO message=stream small=false ' + ++n), 50);";
    const working =
      'console.error(\'level=INFO message=stream small=false 1\'); console.log(\'{"type":"step_finish"}\'); console.error(\'level=INFO message=stream small=false 2\'); console.log(\'{"type":"text"}\'); setTimeout(() => {}, 300);';
    const adapter = (script: string): AgentAdapter => ({
      name: 'attempts',
      buildCommand: () => ({
        argv: [process.execPath, '-e', script],
        stdin: false,
        maxRetries: 1,
        attemptLine: /message=stream small=false/,
      }),
      interpret: (raw) => ({
        classification: raw.exitCode === 0 ? 'ok' : 'failed',
        detail: `exited ${raw.exitCode}`,
        finalText: '',
      }),
    });
    const call = (script: string) =>
      runAgent(
        { spec: { name: 'attempts', adapter: 'attempts', command: [] }, adapter: adapter(script) },
        { role: 'analyze', prompt: '', cwd: process.cwd(), env: {}, timeoutMs: 30_000 },
      );
    const stuck = await call(silent);
    expect(stuck.classification).toBe('failed');
    expect(stuck.detail).toBe(
      'API unreachable: a model request got no answer and was retried (stopped after 2 attempts; the CLI would go on retrying)',
    );
    expect((await call(working)).classification).toBe('ok');
  });
});
