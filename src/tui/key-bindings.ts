import type { Key } from 'ink';

/** What a key asks for. The dispatcher turns a command into UI actions or a call on the loop's controls. */
export type Command =
  | 'approve'
  | 'rollback'
  | 'pause'
  | 'more-iterations'
  | 'fewer-iterations'
  | 'follow'
  | 'up'
  | 'down'
  | 'page-up'
  | 'page-down'
  | 'top'
  | 'bottom'
  | 'focus-next'
  | 'focus-prev'
  | 'open'
  | 'diff'
  | 'take-fixes'
  | 'failures'
  | 'help'
  | 'close'
  | 'quit'
  | 'yes'
  | 'no'
  | 'pipeline-targeted'
  | 'pipeline-standard'
  | 'pipeline-comprehensive';

/** One key: a printable character, or one of Ink's named keys, with the modifiers it needs. */
export interface KeySpec {
  /** The character typed (`a`, `?`, `G`). */
  input?: string;
  /** One of Ink's key flags (`upArrow`, `tab`, `return`...). */
  special?: keyof Key;
  /** Needs ctrl held. Default: false, so `q` and ctrl+q differ. */
  ctrl?: boolean;
  /** For named keys: needs shift (true), must not have it (false), or either (undefined). */
  shift?: boolean;
}

/** A line of the key table: the help overlay and the footer are both generated from it. */
export interface KeyBinding {
  command: Command;
  keys: KeySpec[];
  /** How the keys are written in help and footer (`↑/k`). */
  label: string;
  /** What the command does, for the help overlay. */
  description: string;
  /** The word after the key in the footer (`approve`, `roll back`). */
  hint: string;
}

/** Every key the TUI knows, in the order the help overlay lists them. */
export const KEY_BINDINGS: readonly KeyBinding[] = [
  {
    command: 'approve',
    keys: [{ input: 'a' }],
    label: 'a',
    description: 'approve the partial success awaiting approval',
    hint: 'approve',
  },
  {
    command: 'rollback',
    keys: [{ input: 'r' }],
    label: 'r',
    description: 'roll back the last committed iteration (asks y/n)',
    hint: 'roll back',
  },
  {
    command: 'pause',
    keys: [{ input: 'p' }],
    label: 'p',
    description: 'pause after the current step, or resume',
    hint: 'pause',
  },
  {
    command: 'more-iterations',
    keys: [{ input: '+' }, { input: '=' }],
    label: '+',
    description: 'give the running loop one more iteration (the session records the new max)',
    hint: 'more',
  },
  {
    command: 'fewer-iterations',
    keys: [{ input: '-' }],
    label: '-',
    description: 'give the running loop one iteration fewer (never below the one running)',
    hint: 'fewer',
  },
  {
    command: 'follow',
    keys: [{ input: 'f' }],
    label: 'f',
    description: 'follow the tail of the output, or hold it still',
    hint: 'follow',
  },
  {
    command: 'up',
    keys: [{ special: 'upArrow' }, { input: 'k' }],
    label: '↑/k',
    description: 'scroll up, or move to the iteration or failure group above',
    hint: 'up',
  },
  {
    command: 'down',
    keys: [{ special: 'downArrow' }, { input: 'j' }],
    label: '↓/j',
    description: 'scroll down, or move to the iteration or failure group below',
    hint: 'down',
  },
  {
    command: 'page-up',
    keys: [{ special: 'pageUp' }],
    label: 'PgUp',
    description: 'scroll up a page',
    hint: 'page up',
  },
  {
    command: 'page-down',
    keys: [{ special: 'pageDown' }],
    label: 'PgDn',
    description: 'scroll down a page',
    hint: 'page down',
  },
  {
    command: 'top',
    keys: [{ special: 'home' }, { input: 'g' }],
    label: 'g/Home',
    description: 'go to the top',
    hint: 'top',
  },
  {
    command: 'bottom',
    keys: [{ special: 'end' }, { input: 'G' }],
    label: 'G/End',
    description: 'go to the bottom (the output follows again)',
    hint: 'bottom',
  },
  {
    command: 'focus-next',
    keys: [{ special: 'tab', shift: false }],
    label: 'tab',
    description: 'move focus to the next pane (output, iterations, failures)',
    hint: 'focus',
  },
  {
    command: 'focus-prev',
    keys: [{ special: 'tab', shift: true }],
    label: 'shift+tab',
    description: 'move focus to the previous pane',
    hint: 'focus back',
  },
  {
    command: 'open',
    keys: [{ special: 'return' }],
    label: 'enter',
    description:
      'open the selected iteration (analysis, plan, diff) or failure group (suspects); team: start the pipeline',
    hint: 'open',
  },
  {
    command: 'diff',
    keys: [{ input: 'd' }],
    label: 'd',
    description: "open the selected iteration's fix: its commit and whole diff",
    hint: 'diff',
  },
  {
    command: 'failures',
    keys: [{ input: 'v' }],
    label: 'v',
    description: 'view every failure of the latest run: whole message and stack (v or esc closes)',
    hint: 'failures',
  },
  { command: 'help', keys: [{ input: '?' }], label: '?', description: 'show or hide this help', hint: 'help' },
  {
    command: 'close',
    keys: [{ special: 'escape' }],
    label: 'esc',
    description: 'close the open view or question',
    hint: 'close',
  },
  {
    command: 'quit',
    keys: [{ input: 'q' }, { input: 'c', ctrl: true }],
    label: 'q',
    description: 'quit (asks first while the loop is working; the session stays resumable)',
    hint: 'quit',
  },
  { command: 'yes', keys: [{ input: 'y' }], label: 'y', description: 'answer yes to the question shown', hint: 'yes' },
  { command: 'no', keys: [{ input: 'n' }], label: 'n', description: 'answer no to the question shown', hint: 'no' },
  {
    command: 'pipeline-targeted',
    keys: [{ input: 't' }],
    label: 't',
    description: 'team, before it starts: offer the targeted pipeline (strategy → gen L1 → run L1)',
    hint: 'targeted',
  },
  {
    command: 'pipeline-standard',
    keys: [{ input: 's' }],
    label: 's',
    description: 'team, before it starts: offer the standard pipeline (+ L2 and analysis)',
    hint: 'standard',
  },
  {
    command: 'pipeline-comprehensive',
    keys: [{ input: 'c' }],
    label: 'c',
    description: 'team, before it starts: offer the comprehensive pipeline (L1 ∥ L2, then L3, analysis)',
    hint: 'comprehensive',
  },
  {
    command: 'take-fixes',
    keys: [{ input: 'h' }],
    label: 'h',
    description: "take the fixes waiting on the session's branch: bring them to your branch, as at a success",
    hint: 'take fixes',
  },
];

function matches(spec: KeySpec, input: string, key: Key): boolean {
  if (Boolean(spec.ctrl) !== Boolean(key.ctrl)) return false;
  if (spec.special)
    return Boolean(key[spec.special]) && (spec.shift === undefined || spec.shift === Boolean(key.shift));
  return spec.input === input && !key.meta;
}

/** The command a key press asks for, or null for a key the table does not know. */
export function commandForKey(input: string, key: Key, bindings: readonly KeyBinding[] = KEY_BINDINGS): Command | null {
  // Named keys first: Ink reports enter as input "\r" and tab as "\t" alongside their flags.
  for (const binding of bindings)
    if (binding.keys.some((k) => k.special && matches(k, input, key))) return binding.command;
  for (const binding of bindings)
    if (binding.keys.some((k) => !k.special && matches(k, input, key))) return binding.command;
  return null;
}

/** The binding of a command, for labels. */
export function bindingOf(command: Command): KeyBinding {
  const binding = KEY_BINDINGS.find((b) => b.command === command);
  if (!binding) throw new Error(`no key binding for ${command}`);
  return binding;
}
