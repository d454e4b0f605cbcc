import type { NormalizedResult } from '../types.js';
import type { ParseOutcome } from './parse-outcome.js';

/** Options every parser takes. */
export interface ParseOptions {
  /** The project root: absolute file paths under it become relative, so ids are stable across checkouts. */
  rootDir?: string;
}

/** A report that could be read. */
export function parsed(result: NormalizedResult): ParseOutcome {
  return { ok: true, result };
}

/** A report that cannot be used, with one line saying why and what to do. */
export function unusable(error: string): ParseOutcome {
  return { ok: false, error };
}

/**
 * Runs a parser so that nothing escapes: a bug or a report shaped like nothing we know
 * becomes a one-line error instead of an exception in the loop.
 */
export function guarded(format: string, parse: () => ParseOutcome): ParseOutcome {
  try {
    return parse();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return unusable(
      `${format} report could not be read (${firstLine(reason)}); check that the file is a complete ${format} report`,
    );
  }
}

/** The first non-empty line of a text, trimmed, at most `max` characters. */
export function firstLine(text: string, max = 200): string {
  const line =
    text
      .split(/\r?\n/)
      .find((l) => l.trim() !== '')
      ?.trim() ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Reads a JSON document, or says in one line why it is not one. */
export function readJson(text: string, format: string): { ok: true; value: unknown } | { ok: false; error: string } {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (!/\S/.test(body))
    return { ok: false, error: `${format} report is empty; the runner wrote nothing (did it crash before reporting?)` };
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      error: `${format} report is not valid JSON (${firstLine(reason)}); it may be cut off: rerun the tests so the runner writes it whole`,
    };
  }
}

/** A plain object, or undefined: report fields are checked before use, never trusted. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** The value when it is a string. */
export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The value when it is a finite number. */
export function asNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The value when it is an array, else an empty one. */
export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
