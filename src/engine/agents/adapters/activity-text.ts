import type { AgentActivity } from '../agent.js';

/** The first non-empty line of an agent's message, short enough for one row of the output pane. */
export function firstLineOf(text: string, max = 160): string {
  const line =
    text
      .split('\n')
      .map((l) => l.trim())
      .find(Boolean) ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** A text activity for a message, or none when it is empty. */
export function textActivity(text: string | undefined): AgentActivity[] {
  const line = firstLineOf(text ?? '');
  return line ? [{ kind: 'text', text: line }] : [];
}

/** A JSON object on one line, or undefined. */
export function jsonLine(line: string): Record<string, unknown> | undefined {
  const text = line.trim();
  if (!text.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
