#!/usr/bin/env node
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { parseDuration } from './commands/durations.js';
import { parseBudget, type BudgetLimits } from './engine/agents/budget.js';
import { processOutput } from './commands/output.js';
import type { GenFlags, RunFlags } from './commands/run-flags.js';
import { EXIT } from './engine/loop/exit-codes.js';
import { RUNNER_NAMES } from './engine/runners/names.js';

function duration(value: string): number {
  const ms = parseDuration(value);
  if (ms === null) throw new InvalidArgumentError('use seconds (90), or 90s, 5m, 1h');
  return ms;
}

function budget(value: string): BudgetLimits {
  const parsed = parseBudget(value);
  if (!parsed.ok) throw new InvalidArgumentError(parsed.error);
  return parsed.limits;
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('use a whole number of at least 1');
  return n;
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function commaList(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  ];
}

function addRunOptions(command: Command): Command {
  return command
    .option('-C, --cwd <dir>', 'the repository to work in', process.cwd())
    .option('--test-cmd <command>', 'the test command line (split like a shell, never run through one)')
    .option('--runner <name>', `force a test runner (${RUNNER_NAMES.filter((name) => name !== 'command').join(', ')})`)
    .option(
      '--agent-cmd <command>',
      'an agent command of the agent command protocol; repeat for a fallback chain',
      collect,
    )
    .option(
      '--agent <names>',
      'built-in or configured agents, in fallback order (comma-separated or repeated)',
      commaList,
    )
    .option('--max-iterations <n>', 'stop after this many fix iterations (default 10)', positiveInt)
    .option(
      '--no-localize',
      'do not rank suspect code locations (coverage, stack frames, the change) before each analysis',
    )
    .option(
      '--max-degraded <n>',
      'stop after this many degraded iterations in a row, where no agent gave a usable plan or a fix that changed a file (default 3)',
      positiveInt,
    )
    .option('--resume-session [id]', 'continue a session from where it stopped (default: the latest)')
    .option('--session-name <name>', 'name a new session (WFS-test-<name>)')
    .option('-y, --yes', 'approve a partial success without asking')
    .option(
      '--wait-approval',
      'headless: wait at a partial success for a decision from `fixcycle pane` instead of exiting 3 (the default while a pane follows this repository)',
    )
    .option(
      '--allow-dirty',
      'commit uncommitted changes as a checkpoint before starting (in place; a worktree starts from them as they are)',
    )
    .option(
      '--in-place',
      'work in your working tree and commit on your branch, as before worktrees (CI, a machine nobody edits on); by default the loop works in a worktree of its own and the fixes come back at the end',
    )
    .option(
      '--no-apply',
      "keep the fixes on the session's branch (fixcycle/<session>) instead of bringing them to yours",
    )
    .option('--headless', 'plain progress lines instead of the TUI')
    .option('--json', 'NDJSON events on stdout')
    .option('--test-timeout <duration>', 'kill a test run after this long (default 10m)', duration)
    .option('--agent-timeout <duration>', 'kill an agent call after this long (default 40m)', duration)
    .option(
      '--budget <limits>',
      'stop cleanly once agents used this much: "20 calls", "30m" of agent time, "$2" (comma-separated)',
      budget,
    )
    .option(
      '--update-snapshots',
      'the session is meant to update snapshots: a fix may rewrite snapshot files and inline snapshots (otherwise rejected as a change to the tests)',
    )
    .option('--no-bell', 'no terminal bell when the run ends or waits for a decision');
}

async function runFromFlags(flags: RunFlags, extra: { title?: string; demo?: boolean } = {}): Promise<number> {
  // A session `fixcycle gen` started (--plan-only, or stopped) goes on through the gen pipeline.
  // The gen modules load only on a resume: a new run does not pay for them.
  const genSession = flags.resumeSession
    ? await (await import('./commands/gen-flags.js')).genSessionToResume(flags.cwd, flags.resumeSession)
    : null;
  if (genSession)
    return runGenFromFlags({ ...flags, coverageLines: '80', coverageBranches: '70' }, undefined, genSession);
  // The run's first git calls start now and go on while the engine's modules load.
  const isolated = !flags.resumeSession && !flags.inPlace && !flags.agent?.includes('manual');
  const opened = import('./engine/run-repo.js').then(({ openRunRepo }) => openRunRepo(flags.cwd, { isolated }));
  opened.catch(() => undefined);
  const { runLoopCommand } = await import('./commands/run.js');
  return runLoopCommand(
    {
      cwd: flags.cwd,
      opened,
      testCmd: flags.testCmd,
      runner: flags.runner,
      agentCmds: flags.agentCmd,
      agentNames: flags.agent,
      maxIterations: flags.maxIterations,
      maxDegraded: flags.maxDegraded,
      localize: flags.localize !== false,
      resumeSession: flags.resumeSession === true ? 'latest' : flags.resumeSession,
      sessionName: flags.sessionName,
      yes: Boolean(flags.yes),
      waitApproval: Boolean(flags.waitApproval),
      allowDirty: Boolean(flags.allowDirty),
      inPlace: Boolean(flags.inPlace),
      apply: flags.apply !== false,
      headless: Boolean(flags.headless),
      json: Boolean(flags.json),
      testTimeoutMs: flags.testTimeout,
      agentTimeoutMs: flags.agentTimeout,
      budget: flags.budget,
      updateSnapshots: Boolean(flags.updateSnapshots),
      bell: flags.bell !== false,
      ...extra,
    },
    processOutput,
  );
}

async function runGenFromFlags(flags: GenFlags, input: string | undefined, resume?: string): Promise<number> {
  const { runGenCommand } = await import('./commands/gen.js');
  const { genOptionsFromFlags } = await import('./commands/gen-flags.js');
  return runGenCommand(genOptionsFromFlags(flags, input, resume), processOutput);
}

let exitCode: number = EXIT.success;

const program = new Command()
  .name('fixcycle')
  .description('Drive the test-fix loop with AI coding agents: test, analyse, fix, re-test, commit or roll back.')
  .version('0.1.0')
  .showSuggestionAfterError()
  .exitOverride();

addRunOptions(
  program
    .command('run', { isDefault: true })
    .description('run the test-fix loop on this repository (the default command)'),
).action(async (flags: RunFlags) => {
  exitCode = await runFromFlags(flags);
});

addRunOptions(
  program
    .command('gen [input]')
    .description(
      'generate tests for a change, a description (or .md file) or a WFS- session, prove them (L0, 5 runs, coverage), then run the fix loop',
    ),
)
  .option('--plan-only', 'stop after phase 4 (the plan and task files); `fixcycle run --resume-session` continues')
  .option('--layers <layers>', 'test layers to generate: L1,L2,L3 (default L1,L2)', 'L1,L2')
  .option('--coverage-lines <pct>', 'target line coverage of the changed lines', '80')
  .option('--coverage-branches <pct>', 'target branch coverage of the changed lines', '70')
  .option(
    '--keep-redundant',
    'keep generated tests that copy another (no new coverage, nothing new checked; reported, not dropped)',
  )
  .action(async (input: string | undefined, flags: GenFlags) => {
    exitCode = await runGenFromFlags(flags, input);
  });

program
  .command('team [scope]')
  .description(
    'team testing: scope-driven waves of strategist, generators, executors and analyst with coverage loops (targeted, standard or comprehensive pipeline)',
  )
  .option('-C, --cwd <dir>', 'the repository to work in', process.cwd())
  .option('-c, --concurrency <n>', 'tasks of one wave that run at once', positiveInt, 3)
  .addOption(
    new Option('--pipeline <name>', 'use this pipeline instead of the detected one').choices([
      'targeted',
      'standard',
      'comprehensive',
    ]),
  )
  .option('-y, --yes', 'accept the detected pipeline without asking')
  .option('--continue [id]', 'continue a team session (default: the latest) without redoing finished tasks')
  .option('--test-cmd <command>', 'the test command line')
  .option('--runner <name>', 'force a test runner')
  .option(
    '--agent-cmd <command>',
    'an agent command of the agent command protocol; repeat for a fallback chain',
    collect,
  )
  .option('--agent <names>', 'built-in or configured agents, in fallback order', commaList)
  .option(
    '--allow-dirty',
    'start from uncommitted changes as they are (with --in-place: commit them as a checkpoint first)',
  )
  .option(
    '--in-place',
    "work in your working tree, the tasks' commits landing on your branch as they finish; by default the session works in a worktree of its own and its commits come back at the end",
  )
  .option(
    '--no-apply',
    "keep the session's commits on its branch (fixcycle/<session>) instead of bringing them to yours",
  )
  .option('--headless', 'plain progress lines')
  .option('--json', 'NDJSON events on stdout')
  .option('--test-timeout <duration>', 'kill a test run after this long (default 10m)', duration)
  .option('--agent-timeout <duration>', 'kill an agent call after this long (default 40m)', duration)
  .action(
    async (
      scope: string | undefined,
      flags: {
        cwd: string;
        concurrency: number;
        pipeline?: 'targeted' | 'standard' | 'comprehensive';
        yes?: boolean;
        continue?: string | true;
        testCmd?: string;
        runner?: string;
        agentCmd?: string[];
        agent?: string[];
        allowDirty?: boolean;
        inPlace?: boolean;
        apply?: boolean;
        headless?: boolean;
        json?: boolean;
        testTimeout?: number;
        agentTimeout?: number;
      },
    ) => {
      const { runTeamCommand } = await import('./commands/team.js');
      exitCode = await runTeamCommand(
        {
          cwd: flags.cwd,
          requirement: scope,
          concurrency: flags.concurrency,
          pipeline: flags.pipeline,
          yes: Boolean(flags.yes),
          continueSession: flags.continue,
          allowDirty: Boolean(flags.allowDirty),
          inPlace: Boolean(flags.inPlace),
          apply: flags.apply !== false,
          agentCmds: flags.agentCmd,
          agentNames: flags.agent,
          runner: flags.runner,
          testCmd: flags.testCmd,
          testTimeoutMs: flags.testTimeout,
          agentTimeoutMs: flags.agentTimeout,
          headless: Boolean(flags.headless),
          json: Boolean(flags.json),
        },
        processOutput,
      );
    },
  );

program
  .command('status')
  .description('show the latest (or a given) session')
  .option('-C, --cwd <dir>', 'the repository', process.cwd())
  .option('--session <id>', 'a session id instead of the latest')
  .option('--json', 'print the state as JSON')
  .action(async (flags: { cwd: string; session?: string; json?: boolean }) => {
    const { runStatusCommand } = await import('./commands/status.js');
    exitCode = await runStatusCommand(flags.cwd, flags, processOutput);
  });

program
  .command('report <file>')
  .description(
    'print what fixcycle reads from a test report (JUnit, TAP, node-tap TAP, vitest/jest/mocha JSON, go test -json, libtest JSON (cargo), pytest-json-report, uvu output)',
  )
  .addOption(new Option('--format <name>', 'the report format instead of detecting it'))
  .option('--json', 'print the normalized result as JSON')
  .action(async (file: string, flags: { format?: string; json?: boolean }) => {
    const { runReportCommand } = await import('./commands/report.js');
    exitCode = await runReportCommand(file, flags, processOutput);
  });

program
  .command('doctor')
  .description('show the detected test runner, the agents found and the exact commands fixcycle will run')
  .option('-C, --cwd <dir>', 'the repository', process.cwd())
  .option('--test-cmd <command>', 'as for run')
  .option('--runner <name>', 'as for run')
  .action(async (flags: { cwd: string; testCmd?: string; runner?: string }) => {
    const { runDoctorCommand } = await import('./commands/doctor.js');
    exitCode = await runDoctorCommand(flags.cwd, flags, processOutput);
  });

program
  .command('watch')
  .description('open the TUI on a session driven by another process')
  .option('-C, --cwd <dir>', 'the repository', process.cwd())
  .option('--session <id>', 'a session id instead of the running one')
  .option(
    '--follow',
    'follow the sessions of the repository like tail -F: wait for one, show it, switch to the next (the default when none is running)',
  )
  .option('--no-bell', 'no terminal bell when the session ends or waits for a decision')
  .addOption(new Option('--run-args <json>', 'run options of a loop to start (set by fixcycle pane)').hideHelp())
  .action(async (flags: { cwd: string; session?: string; follow?: boolean; runArgs?: string; bell?: boolean }) => {
    const { importTui } = await import('./tui/load.js');
    const { startWatch } = await importTui(() => import('./tui/watch.js'));
    const runArgs = flags.runArgs ? (JSON.parse(flags.runArgs) as string[]) : undefined;
    exitCode = await startWatch({
      repo: flags.cwd,
      sessionId: flags.session,
      follow: flags.follow || runArgs !== undefined,
      runArgs,
      bell: flags.bell !== false,
    });
  });

addRunOptions(
  program
    .command('pane')
    .description(
      'inside tmux: open a side pane that follows every session of this repository and controls it (with run options, it also starts the loop there)',
    ),
)
  .option('--size <n>', 'columns of the pane (rows with --below); default 60 columns, 20 rows', positiveInt)
  .option('--below', 'split below instead of to the right')
  .action(async (flags: RunFlags & { size?: number; below?: boolean }) => {
    const { runPaneCommand, runArgsOf } = await import('./commands/pane.js');
    exitCode = await runPaneCommand(
      {
        cwd: flags.cwd,
        size: flags.size,
        below: flags.below,
        bell: flags.bell !== false,
        runArgs: runArgsOf(process.argv.slice(2)),
      },
      processOutput,
    );
  });

addRunOptions(
  program.command('demo').description('run the loop on a bundled example project with a scripted demo agent'),
)
  .option('--keep', 'keep the demo repository afterwards')
  .action(async (flags: RunFlags & { keep?: boolean }) => {
    const { prepareDemo } = await import('./demo/prepare.js');
    const demo = await prepareDemo();
    processOutput.stderr(
      `fixcycle demo: a bundled example with 3 injected bugs, fixed by a scripted demo agent (no AI) in ${demo.repo}`,
    );
    try {
      exitCode = await runFromFlags(
        {
          ...flags,
          cwd: demo.repo,
          testCmd: demo.testCmd.join(' '),
          agentCmd: [demo.agentCmd.map((a) => (/\s/.test(a) ? `'${a}'` : a)).join(' ')],
          sessionName: 'demo',
        },
        { title: 'DEMO — scripted demo agent, no AI', demo: true },
      );
    } finally {
      if (flags.keep) processOutput.stderr(`fixcycle demo: kept ${demo.repo}`);
      else await demo.cleanup();
    }
  });

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // --help and --version end here too, with code 0.
    exitCode = error.exitCode === 0 ? EXIT.success : EXIT.usage;
  } else {
    const { userError } = await import('./commands/run.js');
    const message = userError(error);
    if (!message) throw error;
    processOutput.stderr(`fixcycle: ${message}`);
    exitCode = EXIT.usage;
  }
}
process.exitCode = exitCode;
