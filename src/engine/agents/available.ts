import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { findOnPath } from './adapters/discover.js';
import type { ResolvedAgent } from './run-agent.js';

/** The program an agent would start, or null for an in-process agent (manual). */
function programOf(agent: ResolvedAgent): string | null {
  if (agent.adapter.run) return null;
  return agent.adapter.buildCommand(agent.spec, agent.spec.roles?.[0] ?? 'analyze').argv[0] ?? null;
}

/** Why an agent cannot start here (its program is missing), or null when it can. */
export function missingProgram(agent: ResolvedAgent, cwd: string): string | null {
  const program = programOf(agent);
  if (program === null) return null;
  const found = program.includes('/')
    ? existsSync(isAbsolute(program) ? program : resolve(cwd, program))
    : findOnPath(program) !== null;
  return found ? null : `${agent.spec.name}: \`${program}\` is not installed or not on PATH`;
}
