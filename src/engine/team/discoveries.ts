import { appendFile, readFile } from 'node:fs/promises';

export const DISCOVERY_TYPES = [
  'framework_detected',
  'test_generated',
  'defect_found',
  'coverage_gap',
  'convention_found',
  'fix_applied',
  'check_skipped',
] as const;
export type DiscoveryType = (typeof DISCOVERY_TYPES)[number];

/** One entry of the shared discovery board. */
export interface Discovery {
  ts: string;
  worker: string;
  type: DiscoveryType;
  data: Record<string, unknown>;
}

/** The key a discovery is deduplicated by, with its type: the file it is about, else its pattern or framework. */
function keyOf(d: Discovery): string {
  const data = d.data;
  const key = data.file ?? data.test_file ?? data.pattern ?? data.framework ?? JSON.stringify(data);
  return `${d.type}\u0000${typeof key === 'string' ? key : JSON.stringify(key)}${d.type === 'defect_found' && data.line !== undefined ? `:${String(data.line)}` : ''}`;
}

function isDiscovery(value: unknown): value is Discovery {
  if (!value || typeof value !== 'object') return false;
  const v = value as Partial<Discovery>;
  return (
    typeof v.type === 'string' &&
    (DISCOVERY_TYPES as readonly string[]).includes(v.type) &&
    typeof v.data === 'object' &&
    v.data !== null &&
    !Array.isArray(v.data)
  );
}

/** The board as read: unique entries in the order first written, and how many lines were malformed (skipped). */
export interface Board {
  entries: Discovery[];
  malformed: number;
}

export async function readBoard(path: string): Promise<Board> {
  const text = await readFile(path, 'utf8').catch(() => '');
  const seen = new Set<string>();
  const entries: Discovery[] = [];
  let malformed = 0;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      malformed++;
      continue;
    }
    if (!isDiscovery(value)) {
      malformed++;
      continue;
    }
    const key = keyOf(value);
    if (seen.has(key)) continue;
    seen.add(key);
    entries.push({
      ts: typeof value.ts === 'string' ? value.ts : '',
      worker: typeof value.worker === 'string' ? value.worker : '?',
      type: value.type,
      data: value.data,
    });
  }
  return { entries, malformed };
}

/**
 * Appends the discoveries not on the board yet (by type and key). Append-only: nothing on the board is
 * rewritten; a line an agent left unterminated is closed first so the next entry stays on its own line.
 */
export async function appendDiscoveries(
  path: string,
  worker: string,
  found: { type: DiscoveryType; data: Record<string, unknown> }[],
): Promise<number> {
  const board = await readBoard(path);
  const seen = new Set(board.entries.map(keyOf));
  const fresh: Discovery[] = [];
  for (const f of found) {
    const d: Discovery = { ts: new Date().toISOString(), worker, type: f.type, data: f.data };
    const key = keyOf(d);
    if (seen.has(key)) continue;
    seen.add(key);
    fresh.push(d);
  }
  if (fresh.length === 0) return 0;
  const text = await readFile(path, 'utf8').catch(() => '');
  const lead = text && !text.endsWith('\n') ? '\n' : '';
  await appendFile(path, lead + fresh.map((d) => JSON.stringify(d)).join('\n') + '\n');
  return fresh.length;
}

/** The board as a prompt section: one line per discovery. */
export function boardText(board: Board): string {
  if (board.entries.length === 0) return '(no discoveries yet)';
  return board.entries.map((d) => `- [${d.type}] ${d.worker}: ${JSON.stringify(d.data)}`).join('\n');
}
