import { symlinkSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentDoctorLines } from '../../src/commands/doctor-agents.js';
import { cleanup, FAKE_CLIS, tempDir } from './helpers.js';

let bin: string;
let env: NodeJS.ProcessEnv;
beforeAll(() => {
  bin = tempDir('fixcycle-doctor-');
  for (const cli of ['gemini', 'claude', 'aider']) symlinkSync(join(FAKE_CLIS, cli), join(bin, cli));
  env = { PATH: `${bin}${delimiter}${dirname(process.execPath)}` };
});
afterAll(() => cleanup(bin));

describe('fixcycle doctor: agents', () => {
  it('lists the CLIs found with their versions and the exact command line of each role', async () => {
    const text = (await agentDoctorLines(bin, {}, env)).join('\n');
    expect(text).toContain(`✓ gemini 0.61.0 (${join(bin, 'gemini')})`);
    expect(text).toContain(`✓ claude 2.1.197 (Claude Code) (${join(bin, 'claude')})`);
    expect(text).toContain('✗ qwen: not found on PATH');
    expect(text).toContain('✗ codex: not found on PATH');
    expect(text).toMatch(/analyze: gemini -o stream-json --approval-mode default --skip-trust -p 'Follow the instructions above\.' < prompt/);
    expect(text).toMatch(/fix {4}: claude -p --output-format stream-json --verbose --permission-mode acceptEdits --disallowedTools EnterWorktree,ExitWorktree,CronCreate,CronDelete,ScheduleWakeup,Workflow < prompt/);
    expect(text).toMatch(/fix {4}: aider --yes-always --no-auto-commits .* --message <prompt>/);
    expect(text).not.toMatch(/analyze: aider/);
    expect(text).toContain('chain (default: the CLIs found on PATH, in the order gemini, qwen, codex, claude): gemini -> claude');
  });

  it('shows the configured chain with its own arguments', async () => {
    const lines = await agentDoctorLines(bin, { chain: ['claude', 'mine'], agents: { claude: { adapter: 'claude', command: ['--max-turns', '30'] }, mine: { command: 'node agent.js --fast' } } }, env);
    const text = lines.join('\n');
    expect(text).toContain('chain (from fixcycle.config.json): claude -> mine');
    expect(text).toMatch(/analyze: claude -p --output-format stream-json --verbose --permission-mode default --disallowedTools Bash,Edit,Write,NotebookEdit,EnterWorktree,ExitWorktree,CronCreate,CronDelete,ScheduleWakeup,Workflow --max-turns 30 < prompt/);
    expect(text).toMatch(/fix {4}: node agent\.js --fast < prompt/);
  });

  it('says what to do when no CLI is found', async () => {
    const lines = await agentDoctorLines(bin, {}, { PATH: dirname(process.execPath) });
    expect(lines.filter((l) => l.startsWith('  ✓'))).toEqual([]);
    expect(lines.at(-1)).toMatch(/chain: no AI CLI found on PATH .* --agent manual/);
  });
});
