import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { StateRead } from './state-normalize.js';

export type { StateRead };

/** The session id a state file belongs to, from `.workflow/active/<id>/.process/iteration-state.json`. */
function sessionIdFromPath(path: string): string {
  return basename(dirname(dirname(path)));
}

/** Reads and normalizes an iteration-state.json, saying in one line what is wrong with a file it cannot use. */
export async function readIterationState(path: string): Promise<StateRead> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      ok: false,
      error: code === 'ENOENT' ? `${path} does not exist` : `cannot read ${path}: ${code ?? String(error)}`,
    };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `${path} is not valid JSON (${(error as Error).message})` };
  }
  // zod loads with the first state read, not with every start (a new session never reads one).
  const { normalizeIterationState } = await import('./state-normalize.js');
  const result = normalizeIterationState(raw, sessionIdFromPath(path));
  if (!result.ok)
    return { ok: false, error: `${path} is not an iteration state this version can use: ${result.error}` };
  return result;
}
