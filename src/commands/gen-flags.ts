import { findLatestSession } from '../engine/session/session-files.js';
import { activeDir, SESSION_PREFIX } from '../engine/session/paths.js';
import { isGenSession } from '../engine/gen/pipeline.js';
import { StartError } from '../engine/start.js';
import type { GenFlags } from './run-flags.js';
import type { GenCommandOptions } from './gen.js';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { execaSync } from 'execa';

function percent(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 100)
    throw new StartError(`${flag} ${value} is not a percentage: use a number from 0 to 100, e.g. ${flag} 80`);
  return n;
}

function layers(value: string | undefined): ('L1' | 'L2' | 'L3')[] {
  const list = (value ?? 'L1,L2')
    .split(',')
    .map((l) => l.trim().toUpperCase())
    .filter(Boolean);
  const bad = list.find((l) => !['L1', 'L2', 'L3'].includes(l));
  if (bad || list.length === 0)
    throw new StartError(
      `--layers ${value} names an unknown layer${bad ? ` (${bad})` : ''}: use L1, L2 and/or L3, e.g. --layers L1,L2`,
    );
  return list as ('L1' | 'L2' | 'L3')[];
}

export function genOptionsFromFlags(flags: GenFlags, input: string | undefined, resume?: string): GenCommandOptions {
  return {
    cwd: flags.cwd,
    input,
    resumeSession: resume,
    testCmd: flags.testCmd,
    runner: flags.runner,
    agentCmds: flags.agentCmd,
    agentNames: flags.agent,
    maxIterations: flags.maxIterations,
    sessionName: flags.sessionName,
    yes: Boolean(flags.yes),
    allowDirty: Boolean(flags.allowDirty),
    inPlace: Boolean(flags.inPlace),
    apply: flags.apply !== false,
    headless: Boolean(flags.headless),
    json: Boolean(flags.json),
    testTimeoutMs: flags.testTimeout,
    agentTimeoutMs: flags.agentTimeout,
    budget: flags.budget,
    planOnly: Boolean(flags.planOnly),
    layers: layers(flags.layers),
    coverageLines: percent(flags.coverageLines, '--coverage-lines'),
    coverageBranches: percent(flags.coverageBranches, '--coverage-branches'),
    keepRedundant: Boolean(flags.keepRedundant),
  };
}

/** The newest gen session of the repository (by gen-state.json), or null. */
function latestGenSession(root: string): { id: string; mtime: number } | null {
  let best: { id: string; mtime: number } | null = null;
  let names: string[] = [];
  try {
    names = readdirSync(activeDir(root)).filter((n) => n.startsWith(SESSION_PREFIX));
  } catch {
    return null;
  }
  for (const id of names) {
    try {
      const mtime = statSync(join(activeDir(root), id, '.process', 'gen-state.json')).mtimeMs;
      if (!best || mtime > best.mtime) best = { id, mtime };
    } catch {
      // not a gen session
    }
  }
  return best;
}

/** The gen session `run --resume-session [ID]` names, when it is one; null lets `run` handle it as usual. */
export async function genSessionToResume(cwd: string, resume: string | true): Promise<string | null> {
  let root: string;
  try {
    root = execaSync('git', ['rev-parse', '--show-toplevel'], { cwd }).stdout.trim();
  } catch {
    return null;
  }
  if (resume === true || resume === 'latest') {
    const gen = latestGenSession(root);
    if (!gen) return null;
    const loop = await findLatestSession(root);
    const loopTime = loop ? statSync(join(activeDir(root), loop, '.process', 'iteration-state.json')).mtimeMs : 0;
    return loop && loop !== gen.id && loopTime > gen.mtime ? null : gen.id;
  }
  const id = resume.startsWith('WFS-') ? resume : `WFS-test-${resume}`;
  return isGenSession(root, id) ? id : null;
}
