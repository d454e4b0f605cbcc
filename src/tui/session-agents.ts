import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The agent chain a session's workflow-session.json names (empty when it names none). */
export async function agentsOf(dir: string): Promise<string[]> {
  try {
    const meta = JSON.parse(await readFile(join(dir, 'workflow-session.json'), 'utf8')) as { agents?: unknown };
    return Array.isArray(meta.agents) ? meta.agents.filter((a): a is string => typeof a === 'string') : [];
  } catch {
    return [];
  }
}
