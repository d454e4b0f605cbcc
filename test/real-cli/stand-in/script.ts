import type { RecordedRequest, Reply, StandInStep } from './types.js';
import type { EditContext } from './edit-expansion.js';
import { expandEdit } from './edit-expansion.js';

export type ScriptSource = StandInStep[] | ((req: RecordedRequest, index: number) => StandInStep);

/** What one model request gets: a reply to shape in the protocol, or a failure step (error, drop, hang). */
export type Answer =
  | { reply: Reply; delayMs?: number }
  | { failure: Extract<StandInStep, { type: 'error' | 'drop' | 'drop-mid-stream' | 'hang' }> };

const DEFAULT_STEP: StandInStep = { type: 'text', text: 'Done.' };

/**
 * The scripted answers, used up one per model request (the last repeats). An `edit` step lasts as many
 * requests as its expansion into the CLI's own tool calls, then its text; a script function is not asked
 * again until it is done.
 */
export class Script {
  private source: ScriptSource = [];
  /** Steps used up so far: the index a script function gets (an `edit` counts once, when its text is sent). */
  private used = 0;
  private expansion: { step: StandInStep; replies: Reply[]; next: number } | undefined;

  set(source: ScriptSource): void {
    this.source = source;
    this.used = 0;
    this.expansion = undefined;
  }

  /** The step the next model request would get, without using it up (auxiliary requests share its failures). */
  peek(req: RecordedRequest): StandInStep {
    if (this.expansion) return this.expansion.step;
    if (typeof this.source === 'function') return this.source(req, this.used);
    return this.source[Math.min(this.used, this.source.length - 1)] ?? DEFAULT_STEP;
  }

  /** Uses up the answer to one model request. */
  next(req: RecordedRequest, context: EditContext): Answer {
    const step = this.peek(req);
    if (step.type !== 'edit') {
      this.used += 1;
      if (step.type === 'text')
        return { reply: { kind: 'text', text: step.text }, ...(step.delayMs ? { delayMs: step.delayMs } : {}) };
      if (step.type === 'tool') return { reply: { kind: 'tool', name: step.name, input: step.input } };
      if (step.type === 'patch') return { reply: { kind: 'patch', patch: step.patch } };
      return { failure: step };
    }
    this.expansion ??= { step, replies: expandEdit(step, context), next: 0 };
    const reply = this.expansion.replies[this.expansion.next]!;
    this.expansion.next += 1;
    if (this.expansion.next >= this.expansion.replies.length) {
      this.expansion = undefined;
      this.used += 1;
    }
    return { reply };
  }
}

/**
 * The folder the CLI says it works in, as a model reads it from the system prompt ("Primary working directory: ...").
 * fixcycle runs the agent in a worktree of its own, so a real model edits there, never in the user's tree.
 */
export function workingDirectory(req: RecordedRequest, fallback: string): string {
  return /(?:Primary working directory|Working directory): ([^\s"\\]+)/.exec(JSON.stringify(req.body))?.[1] ?? fallback;
}
