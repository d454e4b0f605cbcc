import type { CommandContext, CommandResult } from './command-context.js';
import type { Command } from './key-bindings.js';

const PIPELINE_OF: Partial<Record<Command, string>> = {
  'pipeline-targeted': 'targeted',
  'pipeline-standard': 'standard',
  'pipeline-comprehensive': 'comprehensive',
};

export const isPipelineCommand = (command: Command): boolean => command in PIPELINE_OF;

const say = (text: string, tone: 'info' | 'warn' = 'warn'): CommandResult => ({
  actions: [{ type: 'say', message: { text, tone } }],
});

/**
 * `fixcycle team`'s keys while the pipeline is offered: t / s / c switch it, enter starts it, q leaves at once
 * (nothing has started, so there is nothing to ask). Null: the key means what it means elsewhere.
 */
export function pipelineCommand(command: Command, ctx: CommandContext): CommandResult | null {
  const choice = ctx.session.teamChoice;
  const name = PIPELINE_OF[command];
  if (!choice)
    return name
      ? say(
          ctx.controls?.choosePipeline
            ? 'The pipeline has started: it can be switched only before'
            : 'Only fixcycle team offers pipelines to choose',
          'info',
        )
      : null;
  if (!ctx.controls) return null;
  if (name) {
    const why = ctx.controls.choosePipeline?.(name) ?? 'This session offers no pipeline to choose';
    return why ? say(why) : say(`${name} pipeline: enter starts it`, 'info');
  }
  if (command === 'open') {
    const why = ctx.controls.startPipeline?.() ?? 'This session offers no pipeline to start';
    return why ? say(why) : say(`Starting the ${choice.chosen} pipeline`, 'info');
  }
  if (command === 'quit') {
    ctx.controls.stop();
    return { actions: [], quit: true };
  }
  return null;
}
