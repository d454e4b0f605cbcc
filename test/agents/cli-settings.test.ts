import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CommandContext } from '../../src/engine/agents/agent.js';
import { claudeAdapter } from '../../src/engine/agents/adapters/claude.js';
import { geminiAdapter } from '../../src/engine/agents/adapters/gemini.js';
import { qwenAdapter } from '../../src/engine/agents/adapters/qwen.js';
import { cleanup, tempDir } from './helpers.js';

const dirs: string[] = [];
afterAll(() => cleanup(...dirs.splice(0)));

function context(userEnv: NodeJS.ProcessEnv = {}): CommandContext {
  const privateDir = tempDir('fixcycle-private-');
  dirs.push(privateDir);
  return { privateDir, userEnv };
}

function userHome(files: Record<string, string>): string {
  const home = tempDir('fixcycle-user-home-');
  dirs.push(home);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(home, path, '..'), { recursive: true });
    writeFileSync(join(home, path), content);
  }
  return home;
}

const spec = (name: string) => ({ name, adapter: name, command: [] });

describe('claude: retry caps in the environment', () => {
  it('caps retries and the wait for an answer, and watches for a stall', () => {
    const command = claudeAdapter.buildCommand(spec('claude'), 'analyze', context());
    expect(command.env).toEqual({ CLAUDE_CODE_MAX_RETRIES: '1', API_TIMEOUT_MS: '20000' });
    expect(command.stallMs).toBe(40_000);
    expect(command.files).toBeUndefined();
  });

  it("leaves the user's own settings alone", () => {
    const command = claudeAdapter.buildCommand(spec('claude'), 'fix', context({ CLAUDE_CODE_MAX_RETRIES: '5' }));
    expect(command.env).toEqual({ API_TIMEOUT_MS: '20000' });
  });
});

describe('gemini: a private home with the user settings over fixcycle defaults', () => {
  it('writes its settings into the private folder only and points GEMINI_CLI_HOME at it', () => {
    const home = userHome({
      '.gemini/settings.json': '{ "security": { "auth": { "selectedType": "gemini-api-key" } } }',
    });
    const ctx = context({ HOME: home });
    const command = geminiAdapter.buildCommand(spec('gemini'), 'analyze', ctx);
    expect(command.env).toEqual({ GEMINI_CLI_HOME: join(ctx.privateDir, 'gemini-home') });
    const settings = JSON.parse(command.files!['gemini-home/.gemini/settings.json']!) as Record<
      string,
      Record<string, unknown>
    >;
    expect(settings).toMatchObject({
      general: { maxAttempts: 2 },
      model: { name: 'pro' },
      telemetry: { enabled: false },
      security: { auth: { selectedType: 'gemini-api-key' } },
    });
    expect(readdirSync(join(home, '.gemini'))).toEqual(['settings.json']);
    expect(command.stallMs).toBe(35_000);
    // A test command the fix runs has the tool limit instead.
    expect(geminiAdapter.buildCommand(spec('gemini'), 'fix', ctx).stallMs).toBe(35_000);
  });

  it("keeps the user's attempts and model (settings with comments), and links their login into the private home", () => {
    const home = userHome({
      '.gemini/settings.json':
        '{\n  // mine\n  "general": { "maxAttempts": 7, },\n  "model": { "name": "gemini-2.5-flash" }\n}\n',
      '.gemini/oauth_creds.json': '{"token":"t"}',
      '.gemini/GEMINI.md': 'Be brief.',
      '.env': 'GEMINI_API_KEY=from-dotenv\n',
    });
    const ctx = context({ HOME: home });
    const command = geminiAdapter.buildCommand(spec('gemini'), 'analyze', ctx);
    const settings = JSON.parse(command.files!['gemini-home/.gemini/settings.json']!) as {
      general: Record<string, unknown>;
      model: Record<string, unknown>;
    };
    expect(settings.general).toMatchObject({ maxAttempts: 7, enableAutoUpdate: false });
    expect(settings.model).toEqual({ name: 'gemini-2.5-flash' });
    const link = join(ctx.privateDir, 'gemini-home/.gemini/oauth_creds.json');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(join(home, '.gemini/oauth_creds.json'));
    expect(existsSync(join(ctx.privateDir, 'gemini-home/.gemini/settings.json'))).toBe(false);
    expect(readFileSync(join(ctx.privateDir, 'gemini-home/.env'), 'utf8')).toBe('GEMINI_API_KEY=from-dotenv\n');
    // Built twice (the fix after the analysis) in the same folder: no error, same links.
    expect(() => geminiAdapter.buildCommand(spec('gemini'), 'fix', ctx)).not.toThrow();
  });

  it('passes --skip-trust: an untrusted repository makes gemini exit 55 before any request', () => {
    expect(geminiAdapter.buildCommand(spec('gemini'), 'analyze').argv).toContain('--skip-trust');
  });
});

describe('qwen: a system-defaults file, the lowest settings layer', () => {
  it('caps retries, bounds the wait for an answer and turns memory extraction off', () => {
    const ctx = context({ HOME: userHome({}) });
    const command = qwenAdapter.buildCommand(spec('qwen'), 'analyze', ctx);
    expect(command.env).toEqual({
      QWEN_CODE_SYSTEM_DEFAULTS_PATH: join(ctx.privateDir, 'qwen/system-defaults.json'),
      OPENAI_LOG: 'info',
    });
    expect(command.maxRetries).toBe(2);
    expect(JSON.parse(command.files!['qwen/system-defaults.json']!)).toMatchObject({
      model: { generationConfig: { maxRetries: 0, timeout: 20_000 } },
      memory: { enableManagedAutoMemory: false },
    });
    expect(command.stallMs).toBe(30_000);
  });

  it("keeps a defaults file the user points qwen at, over fixcycle's", () => {
    const home = userHome({ 'defaults.json': '{ "model": { "generationConfig": { "maxRetries": 3 } } }' });
    const command = qwenAdapter.buildCommand(
      spec('qwen'),
      'fix',
      context({ QWEN_CODE_SYSTEM_DEFAULTS_PATH: join(home, 'defaults.json'), OPENAI_LOG: 'off' }),
    );
    expect(command.env?.OPENAI_LOG).toBeUndefined();
    expect(command.maxRetries).toBe(4);
    expect(JSON.parse(command.files!['qwen/system-defaults.json']!)).toMatchObject({
      model: { generationConfig: { maxRetries: 3, timeout: 20_000 } },
    });
    expect(readFileSync(join(home, 'defaults.json'), 'utf8')).toContain('"maxRetries": 3');
  });
});
