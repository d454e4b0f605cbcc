import { symlinkSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultChain, NO_AGENT_FOUND } from '../../src/engine/agents/adapters/discover.js';
import { resolveAgents } from '../../src/engine/agents/resolve.js';
import { ConfigError } from '../../src/engine/config.js';
import { cleanup, FAKE_CLIS, tempDir } from './helpers.js';

/** A PATH holding only these stand-ins (and node, which runs them). */
function pathWith(dir: string, ...clis: string[]): NodeJS.ProcessEnv {
  for (const cli of clis) symlinkSync(join(FAKE_CLIS, cli), join(dir, cli));
  return { PATH: `${dir}${delimiter}${dirname(process.execPath)}` };
}

let some: string;
let none: string;
beforeAll(() => {
  some = tempDir('fixcycle-path-');
  none = tempDir('fixcycle-path-');
});
afterAll(() => cleanup(some, none));

describe('resolving built-in agents', () => {
  it('resolves --agent claude and a config chain of built-ins', () => {
    expect(resolveAgents({ agentNames: ['claude'] }, {}).map((a) => [a.spec.name, a.adapter.name])).toEqual([
      ['claude', 'claude'],
    ]);
    const chain = resolveAgents(
      {},
      {
        chain: ['gemini', 'claude'],
        agents: { claude: { adapter: 'claude', model: 'sonnet', command: '--max-turns 30', timeoutSec: 600 } },
      },
    );
    expect(chain.map((a) => a.spec)).toEqual([
      { name: 'gemini', adapter: 'gemini', command: [] },
      { name: 'claude', adapter: 'claude', command: ['--max-turns', '30'], model: 'sonnet', timeoutMs: 600_000 },
    ]);
  });

  it('gives aider the fix role only, and refuses it the analysis', () => {
    expect(resolveAgents({ agentNames: ['aider'] }, {})[0]!.spec.roles).toEqual(['fix']);
    expect(() => resolveAgents({}, { agents: { a: { adapter: 'aider', roles: ['analyze'] } } })).toThrow(
      /the aider adapter cannot take the analyze role/,
    );
  });

  it('resolves --agent manual without any CLI', () => {
    expect(resolveAgents({ agentNames: ['manual'], env: { PATH: none } }, {})[0]!.adapter.name).toBe('manual');
  });

  it('defaults to the CLIs found on PATH in the order gemini, qwen, codex, claude', () => {
    const env = pathWith(some, 'claude', 'codex', 'aider');
    expect(defaultChain(env)).toEqual(['codex', 'claude']);
    expect(resolveAgents({ env }, {}).map((a) => a.spec.name)).toEqual(['codex', 'claude']);
    expect(defaultChain({ PATH: FAKE_CLIS })).toEqual(['gemini', 'qwen', 'codex', 'claude']);
  });

  it('says in one line that no CLI was found and offers --agent manual', () => {
    expect(() => resolveAgents({ env: { PATH: none } }, {})).toThrow(ConfigError);
    expect(() => resolveAgents({ env: { PATH: none } }, {})).toThrow(NO_AGENT_FOUND);
    expect(NO_AGENT_FOUND).not.toContain('\n');
    expect(NO_AGENT_FOUND).toMatch(/--agent manual/);
    expect(NO_AGENT_FOUND).toMatch(/--agent-cmd/);
  });
});
