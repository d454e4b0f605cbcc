/** A JSON object or array, as CLIs print them. */
export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * The JSON document a CLI printed on stdout. Some print a log line or two before it
 * ("Loaded cached credentials."), so when the whole text does not parse, each line that opens
 * an object or array is tried as the start of the document.
 */
export function parseJsonDocument(stdout: string): unknown {
  const text = stdout.trim();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    // fall through to the line-by-line search
  }
  const lines = text.split('\n');
  for (let i = 1; i < lines.length; i++) {
    const first = lines[i]!.trimStart()[0];
    if (first !== '{' && first !== '[') continue;
    try {
      return JSON.parse(lines.slice(i).join('\n'));
    } catch {
      // not here either
    }
  }
  return undefined;
}

/** The objects of a JSON Lines stream; lines that are not JSON objects are skipped. */
export function parseJsonLines(stdout: string): Json[] {
  const events: Json[] = [];
  for (const line of stdout.split('\n')) {
    const text = line.trim();
    if (!text.startsWith('{')) continue;
    try {
      const value: unknown = JSON.parse(text);
      if (isObject(value)) events.push(value);
    } catch {
      // a log line that happens to start with a brace
    }
  }
  return events;
}

/** Adds up the numbers that are present; undefined when none is. */
export function sum(...values: (number | undefined)[]): number | undefined {
  const present = values.filter((v): v is number => v !== undefined);
  return present.length ? present.reduce((a, b) => a + b, 0) : undefined;
}
