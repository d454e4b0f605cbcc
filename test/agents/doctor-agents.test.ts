import { symlinkSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentDoctorLines } from '../../src/commands/doctor-agents.js';
import { checkVersion } from '../../src/engine/agents/adapters/version-check.js';
import { cleanup, FAKE_CLIS, tempDir } from './helpers.js';

let bin: string;
let env: NodeJS.ProcessEnv;
beforeAll(() => {
  bin = tempDir('fixcycle-doctor-');
  for (const cli of ['gemini', 'claude', 'aider', 'codex', 'opencode']) symlinkSync(join(FAKE_CLIS, cli), join(bin, cli));
  // No codex config of the user's: codex's command line is then the same everywhere.
  env = { PATH: `${bin}${delimiter}${dirname(process.execPath)}`, CODEX_HOME: bin };
});
afterAll(() => cleanup(bin));

describe('fixcycle doctor: agents', () => {
  it('lists the CLIs found with their versions and the exact command line of each role', async () => {
    const text = (await agentDoctorLines(bin, {}, env)).join('\n');
    expect(text).toContain(`✓ gemini 0.61.0 (${join(bin, 'gemini')}) (checked with 0.61.x)`);
    expect(text).toContain(`✓ claude 2.1.197 (Claude Code) (${join(bin, 'claude')}) (checked with 2.1.x)`);
    expect(text).toContain('✗ qwen: not found on PATH');
    expect(text).toMatch(/analyze: gemini -o stream-json --approval-mode default .*< prompt/);
    expect(text).toMatch(/fix {4}: claude -p --output-format stream-json .*--permission-mode acceptEdits.* < prompt/);
    expect(text).toMatch(/fix {4}: LITELLM_LOCAL_MODEL_COST_MAP=True aider --yes-always --no-auto-commits .* --no-show-release-notes --analytics-disable --no-detect-urls .*--message <prompt>/);
    expect(text).toMatch(/analyze: codex exec --json --sandbox read-only --disable unbounded_connection_retries - < prompt/);
    expect(text).toMatch(/analyze: OPENCODE_PERMISSION='\{"bash":"deny","edit":"deny","task":"deny"\}' opencode run --format json --agent plan --print-logs --log-level INFO < prompt/);
    expect(text).toMatch(/analyze: gemini -o stream-json --approval-mode default --skip-trust -p 'Follow the instructions above\.' < prompt/);
    expect(text).toMatch(/fix {4}: claude -p --output-format stream-json --verbose --include-partial-messages --permission-mode acceptEdits --disallowedTools EnterWorktree,ExitWorktree,CronCreate,CronDelete,ScheduleWakeup,Workflow < prompt/);
    expect(text).not.toMatch(/analyze: aider/);
    expect(text).toContain('chain (default: the CLIs found on PATH, in the order gemini, qwen, codex, claude): gemini -> codex -> claude');
  });

  it('warns when a CLI is outside the versions its adapter was checked with, and says what to install', async () => {
    const text = (await agentDoctorLines(bin, {}, env)).join('\n');
    expect(text).toContain(`! codex codex-cli 0.46.0 (${join(bin, 'codex')}): outside the versions fixcycle was checked with (0.169.x); if it misbehaves, install 0.169.x`);
    expect(text).toContain(`! opencode 1.0.25 (${join(bin, 'opencode')}): outside the versions fixcycle was checked with (1.18.x)`);
    expect(text).not.toMatch(/! (gemini|claude|aider)/);
  });

  it('shows the configured chain with its own arguments', async () => {
    const lines = await agentDoctorLines(bin, { chain: ['claude', 'mine'], agents: { claude: { adapter: 'claude', command: ['--max-turns', '30'] }, mine: { command: 'node agent.js --fast' } } }, env);
    const text = lines.join('\n');
    expect(text).toContain('chain (from fixcycle.config.json): claude -> mine');
    expect(text).toMatch(/analyze: claude -p --output-format stream-json --verbose --include-partial-messages --permission-mode default --disallowedTools Bash,Edit,Write,NotebookEdit,EnterWorktree,ExitWorktree,CronCreate,CronDelete,ScheduleWakeup,Workflow --max-turns 30 < prompt/);
    expect(text).toMatch(/fix {4}: node agent\.js --fast < prompt/);
  });

  it('says what to do when no CLI is found', async () => {
    const lines = await agentDoctorLines(bin, {}, { PATH: dirname(process.execPath) });
    expect(lines.filter((l) => l.startsWith('  ✓'))).toEqual([]);
    expect(lines.at(-1)).toMatch(/chain: no AI CLI found on PATH .* --agent manual/);
  });
});

describe('checkVersion', () => {
  it('reads the version out of what --version prints and compares major and minor', () => {
    expect(checkVersion('codex-cli 0.169.3', '0.169.x')).toEqual({ version: '0.169.3', checked: '0.169.x', within: true });
    expect(checkVersion('2.2.0 (Claude Code)', '2.1.x')).toMatchObject({ version: '2.2.0', within: false });
    expect(checkVersion('0.61.0', '0.61.x').within).toBe(true);
    expect(checkVersion('1.180.1', '1.18.x').within).toBe(false);
    expect(checkVersion('version unknown (--version exited 1)', '1.18.x')).toMatchObject({ version: undefined, within: undefined });
  });
});
