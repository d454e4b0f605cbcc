import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentDoctorLines } from '../../src/commands/doctor-agents.js';
import { CHECKED_VERSIONS } from '../../src/engine/agents/adapters/checked-versions.js';
import { checkVersion, compareVersions, describeVerdict } from '../../src/engine/agents/adapters/version-check.js';
import { olderThanRange } from '../../src/commands/cli-engines.js';
import { cleanup, FAKE_CLIS, tempDir } from './helpers.js';

/** The releases of `cli` the contract suite passed, oldest first. */
const checked = (cli: string): string[] => [...(CHECKED_VERSIONS[cli] ?? [])].sort(compareVersions);

let bin: string;
let env: NodeJS.ProcessEnv;
beforeAll(() => {
  bin = tempDir('fixcycle-doctor-');
  for (const cli of ['gemini', 'claude', 'aider', 'codex', 'opencode'])
    symlinkSync(join(FAKE_CLIS, cli), join(bin, cli));
  // No codex config of the user's: codex's command line is then the same everywhere.
  env = { PATH: `${bin}${delimiter}${dirname(process.execPath)}`, CODEX_HOME: bin };
});
afterAll(() => cleanup(bin));

describe('fixcycle doctor: agents', () => {
  it('lists the CLIs found with their versions and the exact command line of each role', async () => {
    const text = (await agentDoctorLines(bin, {}, env)).join('\n');
    expect(text).toContain(`✓ gemini 0.61.0 (${join(bin, 'gemini')}) (checked with ${checked('gemini').join(', ')})`);
    expect(text).toContain(
      `✓ claude 2.1.197 (Claude Code) (${join(bin, 'claude')}) (checked with ${checked('claude').join(', ')})`,
    );
    expect(text).not.toMatch(/\.x\b/);
    expect(text).toContain('✗ qwen: not found on PATH');
    expect(text).toMatch(/analyze: gemini -o stream-json --approval-mode default .*< prompt/);
    expect(text).toMatch(/fix {4}: claude -p --output-format stream-json .*--permission-mode acceptEdits.* < prompt/);
    expect(text).toMatch(
      /fix {4}: LITELLM_LOCAL_MODEL_COST_MAP=True aider --yes-always --no-auto-commits .* --no-show-release-notes --analytics-disable --no-detect-urls .*--message <prompt>/,
    );
    expect(text).toMatch(
      /analyze: codex exec --json --sandbox read-only --disable unbounded_connection_retries - < prompt/,
    );
    expect(text).toMatch(
      /analyze: OPENCODE_PERMISSION='\{"bash":"deny","edit":"deny","task":"deny"\}' opencode run --format json --agent plan --print-logs --log-level INFO < prompt/,
    );
    expect(text).toMatch(
      /analyze: gemini -o stream-json --approval-mode default --skip-trust -p 'Follow the instructions above\.' < prompt/,
    );
    expect(text).toMatch(
      /fix {4}: claude -p --output-format stream-json --verbose --include-partial-messages --permission-mode acceptEdits --disallowedTools EnterWorktree,ExitWorktree,CronCreate,CronDelete,ScheduleWakeup,Workflow < prompt/,
    );
    expect(text).not.toMatch(/analyze: aider/);
    expect(text).toContain(
      'chain (default: the CLIs found on PATH, in the order gemini, qwen, codex, claude): gemini -> codex -> claude',
    );
  });

  it('warns when a CLI is outside the versions its adapter was checked with, and says what to install', async () => {
    const text = (await agentDoctorLines(bin, {}, env)).join('\n');
    const newest = (cli: string) => checked(cli).at(-1)!;
    expect(text).toContain(
      `! codex codex-cli 0.46.0 (${join(bin, 'codex')}): not checked: 0.46.0 (newest checked ${newest('codex')}); if it misbehaves, install ${newest('codex')}`,
    );
    expect(text).toContain(
      `! opencode 1.0.25 (${join(bin, 'opencode')}): not checked: 1.0.25 (newest checked ${newest('opencode')})`,
    );
    // aider has no contract suite here (it could not be installed): no release of it is claimed.
    expect(text).toContain(`! aider aider 0.86.1 (${join(bin, 'aider')}): not checked: 0.86.1 (no release checked)\n`);
    expect(text).not.toMatch(/! (gemini|claude)/);
  });

  it('shows the configured chain with its own arguments', async () => {
    const lines = await agentDoctorLines(
      bin,
      {
        chain: ['claude', 'mine'],
        agents: {
          claude: { adapter: 'claude', command: ['--max-turns', '30'] },
          mine: { command: 'node agent.js --fast' },
        },
      },
      env,
    );
    const text = lines.join('\n');
    expect(text).toContain('chain (from fixcycle.config.json): claude -> mine');
    expect(text).toMatch(
      /analyze: claude -p --output-format stream-json --verbose --include-partial-messages --permission-mode default --disallowedTools Bash,Edit,Write,NotebookEdit,EnterWorktree,ExitWorktree,CronCreate,CronDelete,ScheduleWakeup,Workflow --max-turns 30 < prompt/,
    );
    expect(text).toMatch(/fix {4}: node agent\.js --fast < prompt/);
  });

  it('says what to do when no CLI is found', async () => {
    const lines = await agentDoctorLines(bin, {}, { PATH: dirname(process.execPath) });
    expect(lines.filter((l) => l.startsWith('  ✓'))).toEqual([]);
    expect(lines.at(-1)).toMatch(/chain: no AI CLI found on PATH .* --agent manual/);
  });
});

describe('checkVersion', () => {
  it('reads the version out of what --version prints and finds it among the releases checked, exactly', () => {
    expect(checkVersion('codex-cli 0.169.0', ['0.169.0'])).toEqual({
      version: '0.169.0',
      checked: ['0.169.0'],
      within: true,
    });
    expect(checkVersion('codex-cli 0.169.3', ['0.169.0']).within).toBe(false);
    expect(checkVersion('2.1.331 (Claude Code)', ['2.1.197', '2.1.331']).within).toBe(true);
    expect(checkVersion('version unknown (--version exited 1)', ['1.18.33'])).toMatchObject({
      version: undefined,
      within: undefined,
    });
  });

  it('says which releases were checked, or which newest one when this one was not, never a wildcard', () => {
    expect(describeVerdict(checkVersion('2.1.331 (Claude Code)', ['2.1.331', '2.1.197']))).toBe(
      'checked with 2.1.197, 2.1.331',
    );
    expect(describeVerdict(checkVersion('2.1.400 (Claude Code)', ['2.1.197', '2.1.331']))).toBe(
      'not checked: 2.1.400 (newest checked 2.1.331)',
    );
    expect(describeVerdict(checkVersion('0.86.2', []))).toBe('not checked: 0.86.2 (no release checked)');
    expect(compareVersions('0.15.10', '0.15.9')).toBeGreaterThan(0);
  });
});

describe('the Node a CLI declares', () => {
  it("is named when the running Node is older than the CLI's engines", async () => {
    const pkg = tempDir('fixcycle-doctor-engines-');
    const own = tempDir('fixcycle-doctor-bin-');
    mkdirSync(join(pkg, 'dist'));
    writeFileSync(
      join(pkg, 'package.json'),
      JSON.stringify({ name: '@qwen-code/qwen-code', engines: { node: '>=99.0.0' } }),
    );
    writeFileSync(join(pkg, 'dist', 'cli.js'), "#!/usr/bin/env node\nconsole.log('0.99.0');\n", { mode: 0o755 });
    symlinkSync(join(pkg, 'dist', 'cli.js'), join(own, 'qwen'));
    try {
      const text = (await agentDoctorLines(own, {}, { PATH: `${own}${delimiter}${dirname(process.execPath)}` })).join(
        '\n',
      );
      expect(text).toContain(
        `! qwen declares Node >=99.0.0 in its package.json engines; this is Node ${process.versions.node}: upgrade Node if it misbehaves`,
      );
      expect(text).not.toMatch(/claude declares/);
    } finally {
      cleanup(pkg, own);
    }
    expect(olderThanRange('20.20.2', '>=22.0.0')).toBe(true);
    expect(olderThanRange('22.1.0', '>=22')).toBe(false);
    expect(olderThanRange('20.20.2', '^20 || >=22')).toBeUndefined();
  });
});
