import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Iteration } from '../engine/session/schema.js';
import { ellipsize } from './question-lines.js';

const run = promisify(execFile);

/** A line of the iteration view; headings are drawn bold, diff lines in their colors. */
export interface DetailLine {
  text: string;
  heading?: boolean;
  /** A line of the fix's diff: added, removed, a hunk header, or the commit's header and file names. Diff lines are never wrapped. */
  diff?: 'add' | 'del' | 'hunk' | 'meta';
}

/** Where an iteration's files are and which commit holds its fix. */
export interface DetailSource {
  sessionDir: string;
  /** The repository, for `git show`; null when unknown. */
  repo: string | null;
  iteration: number;
  /** The iteration's entry in iteration-state.json, for its commit and file names. */
  entry?: Iteration;
  /** Only the fix's commit and diff (what `d` opens). Default: false, everything. */
  diffOnly?: boolean;
}

// 400 lines: an analysis longer than this is read in the file itself; the view says where.
const MAX_SECTION_LINES = 400;

function section(title: string, lines: string[]): DetailLine[] {
  const kept = lines.slice(0, MAX_SECTION_LINES).map((text) => ({ text }));
  const cut =
    lines.length > MAX_SECTION_LINES ? [{ text: `… ${lines.length - MAX_SECTION_LINES} more lines in the file` }] : [];
  return [{ text: title, heading: true }, ...kept, ...cut, { text: '' }];
}

async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function list(label: string, value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0) return [];
  return [`${label}:`, ...value.map((item) => `  - ${typeof item === 'string' ? item : JSON.stringify(item)}`)];
}

/** The fix plan's fields as lines, wherever the task file keeps them (fixcycle's context.fix_strategy or a flat plan). */
function planLines(json: unknown): string[] {
  const task = (json ?? {}) as Record<string, unknown>;
  const context = (task['context'] ?? {}) as Record<string, unknown>;
  const plan = (context['fix_strategy'] ?? task) as Record<string, unknown>;
  const lines: string[] = [];
  if (typeof task['title'] === 'string') lines.push(task['title']);
  if (typeof plan['strategy'] === 'string')
    lines.push(
      `strategy: ${plan['strategy']}${plan['strategy_reason'] ? ` (${String(plan['strategy_reason'])})` : ''}`,
    );
  if (typeof plan['approach'] === 'string') lines.push(`approach: ${plan['approach']}`);
  if (typeof plan['confidence_score'] === 'number')
    lines.push(`confidence: ${Math.round(plan['confidence_score'] * 100)}%`);
  lines.push(
    ...list('root causes', plan['root_causes']),
    ...list('modification points', plan['modification_points']),
    ...list('affected tests', plan['affected_tests']),
  );
  return lines.length > 0 ? lines : JSON.stringify(json, null, 2).split('\n');
}

/** A diff line's tone: `+`/`-` lines (not the `+++`/`---` file names), hunk headers, and the rest of the header. */
function diffTone(line: string): DetailLine['diff'] {
  if (line.startsWith('+++') || line.startsWith('---')) return 'meta';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'del';
  if (line.startsWith('@@')) return 'hunk';
  return 'meta';
}

// 2,000 lines: a fix longer than this is read with git show; the view says so.
const MAX_DIFF_LINES = 2000;

/** The fix commit: its subject, the files it changed and its whole diff, each line toned for the view. */
async function diffLines(repo: string, sha: string): Promise<DetailLine[]> {
  try {
    const { stdout } = await run('git', ['show', '--stat', '--patch', '--format=%h %s%n%an, %ar', sha], {
      cwd: repo,
      maxBuffer: 16 * 1024 * 1024,
    });
    const lines = stdout.replace(/\n+$/, '').split('\n');
    const kept = lines.slice(0, MAX_DIFF_LINES).map((text) => ({ text, diff: diffTone(text) }));
    const cut = lines.length - kept.length;
    return cut > 0 ? [...kept, { text: `… ${cut} more lines: git show ${sha.slice(0, 7)}` }] : kept;
  } catch (error) {
    return [
      {
        text: `git show ${sha} failed: ${((error as { stderr?: string }).stderr ?? String(error)).trim().split('\n')[0]}`,
      },
    ];
  }
}

/**
 * Reads what there is to know about one iteration: its analysis (.process/iteration-N-analysis.md),
 * its fix plan (.task/IMPL-fix-N.json) and the files its commit changed (`git show --stat`).
 * A missing file is said as such; nothing here throws for a file that is not there yet.
 */
export async function loadIterationDetail(source: DetailSource): Promise<DetailLine[]> {
  const n = source.iteration;
  const analysisPath = join(source.sessionDir, source.entry?.analysis_file ?? `.process/iteration-${n}-analysis.md`);
  const taskPath = join(source.sessionDir, '.task', `${source.entry?.fix_task ?? `IMPL-fix-${n}`}.json`);
  const agentPath = join(source.sessionDir, '.process', `iteration-${n}-cli-output.txt`);
  const relative = (path: string) => path.slice(source.sessionDir.length + 1);
  const lines: DetailLine[] = [];

  // The fix first: what changed is what the user opened the iteration for.
  const sha = source.entry?.commit;
  if (!sha) lines.push(...section('Fix', ['(no fix commit for this iteration)']));
  else if (!source.repo) lines.push(...section(`Fix · commit ${sha.slice(0, 7)}`, ['(repository unknown)']));
  else
    lines.push({ text: `Fix · commit ${sha.slice(0, 7)}`, heading: true }, ...(await diffLines(source.repo, sha)), {
      text: '',
    });
  if (source.entry?.rollback_commit)
    lines.push(...section('Rolled back', [`by ${source.entry.rollback_commit.slice(0, 7)}`]));
  if (source.diffOnly) return lines;

  const taskText = await readText(taskPath).catch((e: Error) => `cannot read: ${e.message}`);
  let plan: string[];
  if (taskText === null) plan = ['(not written yet)'];
  else {
    try {
      plan = planLines(JSON.parse(taskText));
    } catch {
      plan = ['(not valid JSON yet: the file may be half-written)'];
    }
  }
  lines.push(...section(`Fix plan · ${relative(taskPath)}`, plan));

  // What the agents said and did, as the session recorded their calls (tool activity and final message).
  const agent = await readText(agentPath).catch((e: Error) => `cannot read: ${e.message}`);
  lines.push(
    ...section(
      `Agent · ${relative(agentPath)}`,
      agent === null || agent.trim() === '' ? ['(nothing recorded yet)'] : agent.replace(/\n+$/, '').split('\n'),
    ),
  );

  const analysis = await readText(analysisPath).catch((e: Error) => `cannot read: ${e.message}`);
  lines.push(
    ...section(
      `Analysis · ${relative(analysisPath)}`,
      analysis === null ? ['(not written yet)'] : analysis.replace(/\n+$/, '').split('\n'),
    ),
  );
  return lines;
}

/**
 * The lines as a `width`-column view shows them: prose wraps at word boundaries (continuation lines keep the
 * indent), a word wider than the view and every diff line end with `…` instead of being cut.
 */
export function fitDetailLines(lines: readonly DetailLine[], width: number): DetailLine[] {
  const out: DetailLine[] = [];
  for (const line of lines) {
    if (line.diff || line.heading || line.text.length <= width) {
      out.push(line.text.length <= width ? line : { ...line, text: ellipsize(line.text, width) });
      continue;
    }
    const lead = /^\s*(?:[-*] |\d+\. )?/.exec(line.text)![0];
    // Continuation lines line up under the text, unless the indent would leave too little room.
    const indent = lead.length < width / 2 ? ' '.repeat(lead.length) : '';
    let rest = line.text.slice(lead.length).trim();
    let prefix = lead.length < width / 2 ? lead : '';
    while (rest) {
      const room = width - prefix.length;
      if (rest.length <= room) {
        out.push({ text: `${prefix}${rest}` });
        break;
      }
      const space = rest.lastIndexOf(' ', room);
      // A word wider than the room ends with … rather than being cut.
      if (space <= 0) {
        const word = rest.split(' ')[0]!;
        out.push({ text: `${prefix}${ellipsize(word, room)}` });
        rest = rest.slice(word.length).trim();
      } else {
        out.push({ text: `${prefix}${rest.slice(0, space).trimEnd()}` });
        rest = rest.slice(space).trim();
      }
      prefix = indent;
    }
  }
  return out;
}
