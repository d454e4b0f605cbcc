import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Localization, Suspect } from './types.js';

/** Suspects shown in the analysis prompt, and the lines of code around each one's best lines. */
export const PROMPT_SUSPECTS = 5;
/** Of those, the first ones shown with their code, when more than coverage points at them. */
const WITH_CODE = 2;
const AROUND = 1;
const MAX_EXCERPT = 8;

const where = (s: Suspect): string => `${s.file}:${s.function}:${s.startLine}-${s.endLine}`;

/** `used: coverage (per test file), stack frames, the change since abc1234` — what the ranking rested on. */
export function evidenceUsed(loc: Pick<Localization, 'used' | 'granularity' | 'cached' | 'changeBase'>): string {
  if (loc.used.length === 0) return 'none (no coverage, no stack frame in the project, no known change)';
  const parts = loc.used.map((kind) =>
    kind === 'coverage'
      ? `coverage spectra (${loc.granularity === 'test' ? 'per test' : loc.granularity === 'split' ? 'failing tests apart from passing ones' : loc.granularity === 'file' ? 'per test file' : 'the run as a whole'}${loc.cached ? ', cached' : ''})`
      : kind === 'stack'
        ? 'stack frames'
        : `the change${loc.changeBase && loc.changeBase !== 'HEAD' ? ` since ${loc.changeBase.slice(0, 7)}` : ' (uncommitted)'}`,
  );
  return parts.join(', ');
}

/** A suspect's best lines with one line around each, at most MAX_EXCERPT; `>` marks the best. */
function excerpt(root: string, s: Suspect): string {
  let text: string[];
  try {
    text = readFileSync(join(root, s.file), 'utf8').split('\n');
  } catch {
    return '';
  }
  const wanted = new Set<number>();
  for (const hot of s.lines)
    for (let l = hot - AROUND; l <= hot + AROUND; l++)
      if (l >= s.startLine && l <= s.endLine && wanted.size < MAX_EXCERPT) wanted.add(l);
  const lines = [...wanted].sort((a, b) => a - b);
  const out: string[] = [];
  lines.forEach((l, i) => {
    if (i > 0 && l !== lines[i - 1]! + 1) out.push('  ...');
    out.push(`${s.lines.includes(l) ? '>' : ' '}${String(l).padStart(4)}| ${(text[l - 1] ?? '').slice(0, 160)}`);
  });
  return out.join('\n');
}

/** `change 37; stack 12; coverage 0.71`: the evidence of one suspect in a few words. */
function shortEvidence(s: Suspect): string {
  const parts: string[] = [];
  for (const e of s.evidence) {
    const lines = /line ([\d, -]+)/.exec(e)?.[1]?.trim();
    if (e.startsWith('change:')) parts.push(`changed line ${lines}`);
    else if (e.startsWith('stack:')) parts.push(`in stack at line ${lines}`);
    else if (e.startsWith('coverage:'))
      parts.push(
        s.scores.coverage !== undefined && s.scores.coverage < 1
          ? `coverage ${s.scores.coverage}`
          : 'run by failing tests',
      );
    else if (
      /^name: (\d+ of \d+ failing test name|the failing tests call)/.test(e) &&
      !parts.includes('named by the failing test')
    )
      parts.push('named by the failing test');
  }
  return parts.join('; ');
}

/** The analysis prompt's suspects, best first: where, why in a few words, and the code of the strongest. */
export function suspectsPromptBlock(loc: Localization, root: string, max = PROMPT_SUSPECTS): string {
  if (loc.suspects.length === 0) return `None found (evidence: ${evidenceUsed(loc)}).`;
  // Suspects only run by a run-wide coverage tie with every other function run: listed only when nothing
  // stronger points anywhere, and then without code.
  // Spectra that tell tests apart make any Ochiai score evidence.
  const told = loc.granularity !== undefined && loc.granularity !== 'run';
  const strong = (s: Suspect): boolean =>
    s.scores.change !== undefined ||
    s.scores.stack !== undefined ||
    (s.scores.coverage ?? 1) < 1 ||
    (told && s.scores.coverage !== undefined);
  const picked = loc.suspects.some(strong) ? loc.suspects.filter(strong).slice(0, max) : loc.suspects.slice(0, 3);
  const shown = picked.map((s, i) => {
    const code = i < WITH_CODE && strong(s) ? excerpt(root, s) : '';
    return `${i + 1}. ${where(s)}: ${shortEvidence(s)}${code ? `\n${code}` : ''}`;
  });
  return `From ${evidenceUsed(loc)} (\`>\`: best lines):\n${shown.join('\n')}`;
}

/** The suspects as iteration-N-analysis.md lists them. */
export function suspectsMarkdown(loc: Localization): string {
  const list =
    loc.suspects.map((s, i) => `${i + 1}. \`${where(s)}\` score ${s.score}; ${s.evidence.join('; ')}`).join('\n') ||
    '- none';
  const notes = loc.notes.length ? `\n\nNot used: ${loc.notes.join('; ')}.` : '';
  return `## Suspects\nEvidence used: ${evidenceUsed(loc)}; ${loc.durationMs} ms.\n\n${list}${notes}\n`;
}

/** `src/a.js:fn:12-14` or `src/a.js:12-14` -> its parts; the function or the lines may be absent. */
function parsePoint(point: string): { file: string; fn?: string; from?: number; to?: number } {
  // A part that is only a line range is the lines, not a function named `12-14`.
  const m = /^(.+?\.[\w]+)(?::(?!\d+(?:-\d+)?$)([^:]*))?(?::(\d+)(?:-(\d+))?)?/.exec(
    point.trim().replace(/^`|`$/g, ''),
  );
  if (!m) return { file: point.trim() };
  return {
    file: m[1]!.replace(/^\.\//, ''),
    fn: m[2] || undefined,
    from: m[3] ? Number(m[3]) : undefined,
    to: m[4] ? Number(m[4]) : m[3] ? Number(m[3]) : undefined,
  };
}

/** A plan warning when none of its modification points falls inside a suspect (by lines, else by function name). */
export function planOutsideSuspects(points: readonly string[], suspects: readonly Suspect[]): string | null {
  if (suspects.length === 0 || points.length === 0) return null;
  const inside = points.some((point) => {
    const p = parsePoint(point);
    return suspects.some((s) => {
      if (s.file !== p.file) return false;
      if (p.from !== undefined) return p.from <= s.endLine && (p.to ?? p.from) >= s.startLine;
      if (p.fn) return s.function === p.fn || s.function.endsWith(`.${p.fn}`) || s.function.endsWith(`::${p.fn}`);
      return true;
    });
  });
  return inside
    ? null
    : `modification points fall outside every suspect fixcycle ranked (top: ${suspects.slice(0, 3).map(where).join(', ')})`;
}
