import type { CompletionDecision } from './completion.js';

/** A part of the test command the session left out because it cannot run on this machine (state.parts_not_run). */
export interface PartLeftOut {
  /** How `skipParts` names it (`test-headless`). */
  name: string;
  command: string[];
  /** What it lacks here (`a browser`). */
  needs: string;
  /** A step inside the command (a task runner's target) that fixcycle cannot leave out: it runs, uncounted. */
  inside?: boolean;
}

/** The sentence that names the parts left out, why, and how to run or skip them. */
export function partsNotRunSentence(parts: readonly PartLeftOut[]): string {
  const inside = parts.filter((p) => p.inside);
  if (inside.length > 0) {
    const steps = inside
      .map((p) => `a step inside \`${p.command.join(' ')}\` failed (it needs ${p.needs} that is not here)`)
      .join(', ');
    const rest = parts.filter((p) => !p.inside);
    return `not run: ${steps}, after its tests passed: install what it needs and run the tests again, or pass --test-cmd with the steps that run here${rest.length > 0 ? `; ${partsNotRunSentence(rest)}` : ''}`;
  }
  const named = parts.map((p) => `\`${p.command.join(' ')}\` (it needs ${p.needs} that is not here)`).join(', ');
  const skip = parts.map((p) => `"${p.name}"`).join(', ');
  return `not run: the test command's part${parts.length > 1 ? 's' : ''} ${named}: install what ${parts.length > 1 ? 'they need' : 'it needs'} and run the tests again, or leave ${parts.length > 1 ? 'them' : 'it'} out with "skipParts": [${skip}] in fixcycle.config.json`;
}

/**
 * How a session ends when a part of the test command was left out: what ran is all the session could check, so
 * converging on it is said as such, never as the success of the whole command (exit 1, as the unbroken project's
 * stop). Any other end keeps its outcome, with the parts named.
 */
export function completionWithPartsLeftOut(
  decision: CompletionDecision,
  parts: readonly PartLeftOut[],
): CompletionDecision & { convergedHere?: boolean } {
  if (parts.length === 0 || decision.outcome === 'continue') return decision;
  if (decision.outcome === 'success')
    return {
      outcome: 'failure',
      convergedHere: true,
      reason: `converged on what runs here (${decision.reason}); ${partsNotRunSentence(parts)}`,
    };
  return { ...decision, reason: `${decision.reason}; ${partsNotRunSentence(parts)}` };
}
