import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FixcycleConfig } from './config-schema.js';

export type { AgentConfig, FixcycleConfig } from './config-schema.js';

export const CONFIG_FILE = 'fixcycle.config.json';

/** A configuration problem: the message names the file, the field and the fix. */
export class ConfigError extends Error {}

/** Reads fixcycle.config.json from the repository root; a missing file is an empty config. */
export async function loadConfig(repo: string, file = join(repo, CONFIG_FILE)): Promise<FixcycleConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ConfigError(`cannot read ${file}: ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file} is not valid JSON (${(error as Error).message}): fix the syntax or delete the file`);
  }
  // zod loads only when there is a file to check: most runs have none.
  const { configSchema } = await import('./config-schema.js');
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? issue.path.join('.') : 'top level';
    throw new ConfigError(`${file}: ${where}: ${issue.message}; fix that field (see README, "Configuration")`);
  }
  return parsed.data;
}
