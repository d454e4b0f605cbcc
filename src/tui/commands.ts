import type { SessionView } from '../state/store.js';
import type { UiAction } from '../state/ui-state.js';
import type { CommandContext, CommandResult } from './command-context.js';
import { lastCommittedIteration } from './iteration-rows.js';
import type { Command } from './key-bindings.js';
import { isPipelineCommand, pipelineCommand } from './team-commands.js';

const say = (text: string, tone: 'info' | 'warn' = 'warn'): UiAction => ({ type: 'say', message: { text, tone } });
const only = (...actions: UiAction[]): CommandResult => ({ actions });

const WATCH = (what: string) => `No loop to send this to from here: ${what} from fixcycle watch or fixcycle pane`;

function iterationNumbers(session: SessionView): number[] {
  return (session.state?.iterations ?? []).map((it) => it.iteration);
}

function move(ctx: CommandContext, delta: number): CommandResult {
  const { ui } = ctx;
  if (ui.focus === 'output') return only({ type: 'scroll-output', delta, window: ctx.output });
  if (ui.focus === 'failures') {
    // A group takes two lines (headline, tests): a page of lines is half as many groups.
    if (ctx.failureGroups.ids.length > 0)
      return only({
        type: 'select-failure-group',
        delta: Math.sign(delta) * Math.max(1, Math.floor(Math.abs(delta) / 2)),
        spans: ctx.failureGroups.spans,
      });
    if (ctx.failuresMax <= 0) return only(say('Nothing to scroll: the failures fit in the pane', 'info'));
    return only({ type: 'scroll-failures', delta, max: ctx.failuresMax });
  }
  const iterations = iterationNumbers(ctx.session);
  if (iterations.length === 0)
    return only(say('No iterations yet: the first starts after the initial test run', 'info'));
  return only({
    type: 'select-iteration',
    delta: Math.sign(delta) * Math.min(Math.abs(delta), iterations.length),
    iterations,
  });
}

function edge(ctx: CommandContext, to: 'top' | 'bottom'): CommandResult {
  if (ctx.ui.focus === 'output') return only({ type: 'scroll-output-edge', edge: to, window: ctx.output });
  if (ctx.ui.focus === 'failures' && ctx.failureGroups.ids.length > 0)
    return only({
      type: 'select-failure-group',
      delta: to === 'top' ? -Infinity : Infinity,
      spans: ctx.failureGroups.spans,
    });
  if (ctx.ui.focus === 'failures')
    return only({ type: 'scroll-failures', delta: to === 'top' ? -Infinity : Infinity, max: ctx.failuresMax });
  return only({ type: 'select-iteration-edge', edge: to, iterations: iterationNumbers(ctx.session) });
}

function answerYes(ctx: CommandContext): CommandResult {
  const { ui, controls } = ctx;
  if (!ui.confirm || !controls) return only({ type: 'answered' });
  if (ui.confirm.kind === 'quit') {
    controls.stop();
    return only(
      { type: 'answered' },
      { type: 'stopping' },
      say('Stopping: the running step is cancelled… q leaves now', 'info'),
    );
  }
  const target = lastCommittedIteration(ctx.session.state?.iterations ?? []);
  const why = controls.requestRollback();
  const done = target
    ? `Rolling back iteration ${target.iteration} after the current step`
    : 'Rolling back after the current step';
  return only({ type: 'answered' }, say(why ?? done, why ? 'warn' : 'info'));
}

function inQuestion(command: Command, ctx: CommandContext): CommandResult {
  const confirm = ctx.ui.confirm!;
  if (command === 'yes' || (command === 'quit' && confirm.kind === 'quit')) return answerYes(ctx);
  // A pane's q: n leaves the pane and the run goes on.
  if (command === 'no' && confirm.kind === 'quit' && ctx.controls?.remote)
    return { actions: [{ type: 'answered' }], quit: true };
  if (command === 'no' || command === 'close') {
    const text = confirm.kind === 'quit' ? 'The loop goes on' : 'Nothing rolled back';
    return only({ type: 'answered' }, say(text, 'info'));
  }
  return only(say(`Answer first: y ${confirm.kind === 'quit' ? 'stops the loop' : 'rolls back'}, n cancels`));
}

function scrollCommand(
  command: Command,
  ctx: CommandContext,
  scroll: (delta: number) => CommandResult,
): CommandResult | null {
  switch (command) {
    case 'up':
      return scroll(-1);
    case 'down':
      return scroll(1);
    case 'page-up':
      return scroll(-ctx.page);
    case 'page-down':
      return scroll(ctx.page);
    case 'top':
      return scroll(-Infinity);
    case 'bottom':
      return scroll(Infinity);
    default:
      return null;
  }
}

function inHelp(command: Command, ctx: CommandContext): CommandResult {
  if (command === 'help' || command === 'close' || command === 'quit') return only({ type: 'close' });
  const scrolled = scrollCommand(command, ctx, (delta) => only({ type: 'scroll-help', delta, max: ctx.helpMax }));
  return scrolled ?? only(say('Help is open: esc closes it'));
}

function inDetail(command: Command, ctx: CommandContext): CommandResult {
  const { detail, failureDetail } = ctx.ui;
  const view = detail ? 'iteration view' : failureDetail?.failureId === null ? 'failures view' : 'failure group';
  // The key that opened a view also closes it: enter a failure group, v the latest failures, d a fix's diff.
  const opener =
    (command === 'open' && failureDetail && failureDetail.failureId !== null) ||
    (command === 'failures' && failureDetail?.failureId === null) ||
    (command === 'diff' && detail?.diffOnly);
  if (command === 'close' || command === 'quit' || opener) return only({ type: 'close' });
  // d in the whole iteration view narrows it to the diff; enter in the diff widens it to the whole iteration.
  if (detail && command === 'diff') return only({ type: 'open-detail', iteration: detail.iteration, diffOnly: true });
  if (detail?.diffOnly && command === 'open') return only({ type: 'open-detail', iteration: detail.iteration });
  const scrolled = scrollCommand(command, ctx, (delta) => only({ type: 'scroll-detail', delta, max: ctx.detailMax }));
  return scrolled ?? only(say(`The ${view} is open: esc closes it`));
}

function takeFixes(ctx: CommandContext): CommandResult {
  const waiting = ctx.session.handback;
  if (waiting?.status !== 'waiting')
    return only(
      say(
        waiting?.status === 'conflict'
          ? 'These fixes meet lines you changed: take them with the command shown, resolving the conflict'
          : "No fixes wait on the session's branch",
      ),
    );
  const why = ctx.controls?.takeFixes?.();
  if (why === undefined) return only(say(`No key here can take them: ${waiting.command ?? 'see fixcycle status'}`));
  return only(say(why ?? 'Taking the fixes to your branch…', why ? 'warn' : 'info'));
}

function approve(ctx: CommandContext): CommandResult {
  if (!ctx.controls) return only(say(WATCH('approve')));
  if (!ctx.session.awaitingApproval) {
    if (ctx.session.done) return only(say('The session has ended: nothing to approve'));
    return only(
      say(
        'Nothing to approve: approval is asked only for a partial success (pass rate ≥ 95%, only low-criticality failures)',
      ),
    );
  }
  const unreachable = ctx.controls.unreachable?.();
  if (unreachable) return only(say(unreachable));
  const why = ctx.controls.approve();
  const done = ctx.controls.remote
    ? 'Approval sent to the process driving the session…'
    : 'Approved: the session completes as a partial success';
  return only(say(why ?? done, why ? 'warn' : 'info'));
}

function rollback(ctx: CommandContext): CommandResult {
  if (!ctx.controls) return only(say(WATCH('roll back')));
  const target = lastCommittedIteration(ctx.session.state?.iterations ?? []);
  if (ctx.session.done) {
    return only(
      say(
        target
          ? `The session has ended: undo a fix with git revert ${target.commit!.slice(0, 7)}`
          : 'The session has ended: nothing to roll back',
      ),
    );
  }
  if (!target) return only(say('Nothing to roll back: no iteration has a fix commit yet'));
  const unreachable = ctx.controls.unreachable?.();
  if (unreachable) return only(say(unreachable));
  const prompt = `Roll back iteration ${target.iteration} (${target.commit!.slice(0, 7)})? It is reverted after the current step.`;
  const choices = [
    { key: 'y', does: 'rolls it back', short: 'roll back' },
    { key: 'n', does: 'keeps it', short: 'keep' },
  ];
  return only({ type: 'ask', confirm: { kind: 'rollback', prompt, choices } });
}

function pause(ctx: CommandContext): CommandResult {
  if (!ctx.controls) return only(say(WATCH('pause')));
  if (ctx.session.done) return only(say('The session has ended: nothing to pause'));
  if (ctx.session.awaitingApproval) return only(say('The session waits for approval: nothing runs to pause'));
  const unreachable = ctx.controls.unreachable?.();
  if (unreachable) return only(say(unreachable));
  const paused = ctx.controls.togglePause();
  return only(say(paused ? 'Pausing after the current step: p resumes' : 'Resumed', 'info'));
}

function budget(ctx: CommandContext, delta: 1 | -1): CommandResult {
  if (!ctx.controls) return only(say(WATCH('change the iterations')));
  if (ctx.session.done)
    return only(say('The session has ended: fixcycle run --resume-session with --max-iterations gives it more'));
  const unreachable = ctx.controls.unreachable?.();
  if (unreachable) return only(say(unreachable));
  if (!ctx.controls.changeMaxIterations) return only(say('This loop takes no change of its iterations'));
  const max = ctx.session.state?.max_iterations;
  const why = ctx.controls.changeMaxIterations(delta);
  if (why) return only(say(why));
  const word = delta > 0 ? 'one more' : 'one fewer';
  if (ctx.controls.remote) return only(say(`Asked for ${word} iteration…`, 'info'));
  return only(say(max === undefined ? `Iterations: ${word}` : `Iterations: up to ${max + delta} (${word})`, 'info'));
}

function quit(ctx: CommandContext): CommandResult {
  if (!ctx.controls || ctx.session.done || ctx.ui.stopping || !ctx.session.sessionId || ctx.controls.unreachable?.())
    return { actions: [], quit: true };
  // Stopping cancels the running step at once (its agent or test run is killed); the session stays resumable.
  if (ctx.controls.remote)
    return only({
      type: 'ask',
      confirm: {
        kind: 'quit',
        prompt: 'Stop the run now? Its running step is cancelled; the session stays resumable.',
        choices: [
          { key: 'y', does: 'stops it and leaves', short: 'stop' },
          { key: 'n', does: 'leaves it running', short: 'leave' },
          { key: 'esc', does: 'stays here', short: 'stay' },
        ],
      },
    });
  const prompt = 'Stop the loop now and leave? The running step is cancelled; the session stays resumable.';
  const choices = [
    { key: 'y', does: 'stops and leaves', short: 'stop' },
    { key: 'n', does: 'goes on', short: 'go on' },
    { key: 'esc', does: 'goes on too', short: 'go on' },
  ];
  return only({ type: 'ask', confirm: { kind: 'quit', prompt, choices } });
}

function diff(ctx: CommandContext): CommandResult {
  const iterations = iterationNumbers(ctx.session);
  if (iterations.length === 0) return only(say('No fix to show yet: the first iteration has not started', 'info'));
  const iteration = ctx.ui.selected ?? iterations.at(-1)!;
  const entry = ctx.session.state?.iterations.find((it) => it.iteration === iteration);
  if (!entry?.commit)
    return only(
      say(
        `Iteration ${iteration} has no fix commit${entry?.result ? '' : ' yet'}: enter opens its plan and analysis`,
        'info',
      ),
    );
  return only({ type: 'open-detail', iteration, diffOnly: true });
}

function open(ctx: CommandContext): CommandResult {
  const { ids } = ctx.failureGroups;
  if (ctx.ui.focus === 'failures' && ids.length > 0)
    return only({ type: 'open-failure-detail', failureId: ids[Math.min(ctx.ui.failureGroup, ids.length - 1)]! });
  const iterations = iterationNumbers(ctx.session);
  if (iterations.length === 0)
    return only(say('No iteration to open yet: the first starts after the initial test run', 'info'));
  return only({ type: 'open-detail', iteration: ctx.ui.selected ?? iterations.at(-1)! });
}

/**
 * Runs one command against the newest state. Calls on the loop's controls happen here (they are the
 * intents a key stands for); everything else comes back as UI actions. A key that does nothing in this
 * state comes back as a message saying why.
 */
export function runCommand(command: Command, ctx: CommandContext): CommandResult {
  const { ui } = ctx;
  if (ui.confirm) return inQuestion(command, ctx);
  if (ui.detail || ui.failureDetail) return inDetail(command, ctx);
  if (ui.help) return inHelp(command, ctx);
  if (ctx.session.teamChoice || isPipelineCommand(command)) {
    const handled = pipelineCommand(command, ctx);
    if (handled) return handled;
  }
  switch (command) {
    case 'approve':
      return approve(ctx);
    case 'take-fixes':
      return takeFixes(ctx);
    case 'rollback':
      return rollback(ctx);
    case 'pause':
      return pause(ctx);
    case 'more-iterations':
      return budget(ctx, 1);
    case 'fewer-iterations':
      return budget(ctx, -1);
    case 'follow':
      return only(
        { type: 'toggle-follow', window: ctx.output },
        say(ui.follow ? 'Output held still: f follows the tail again' : 'Following the tail of the output', 'info'),
      );
    case 'up':
      return move(ctx, -1);
    case 'down':
      return move(ctx, 1);
    case 'page-up':
      return move(ctx, -ctx.page);
    case 'page-down':
      return move(ctx, ctx.page);
    case 'top':
      return edge(ctx, 'top');
    case 'bottom':
      return edge(ctx, 'bottom');
    case 'focus-next':
      return only({ type: 'focus', direction: 1 });
    case 'focus-prev':
      return only({ type: 'focus', direction: -1 });
    case 'open':
      return open(ctx);
    case 'diff':
      return diff(ctx);
    case 'failures':
      return only({ type: 'open-failure-detail', failureId: null });
    case 'help':
      return only({ type: 'toggle-help' });
    case 'close':
      return only(say('Nothing to close', 'info'));
    case 'quit':
      return quit(ctx);
    case 'yes':
    case 'no':
      return only(say('No question to answer', 'info'));
    default:
      return only(say('That key does nothing here: ? lists the keys', 'info'));
  }
}
