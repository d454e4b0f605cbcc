import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Localization, Suspect } from './types.js';

/** Suspects shown in the analysis prompt, and the lines of code around each one's best lines. */
export const PROMPT_SUSPECTS = 5;
/** Of those, the first ones shown with their code. */
const WITH_CODE = 3;
const AROUND = 2;
const MAX_EXCERPT = 10;

const where = (s: Suspect): string => `${s.file}:${s.function}:${s.startLine}-${s.endLine}`;

/** `used: coverage (per test file), stack frames, the change since abc1234` — what the ranking rested on. */
export function evidenceUsed(loc: Localization): string {
  if (loc.used.length === 0) return 'none (no coverage, no stack frame in the project, no known change)';
  const parts = loc.used.map((kind) =>
    kind === 'coverage' ? `coverage spectra (${loc.granularity === 'test' ? 'per test' : loc.granularity === 'file' ? 'per test file' : 'the run as a whole'}${loc.cached ? ', cached' : ''})` : kind === 'stack' ? 'stack frames' : `the change${loc.changeBase && loc.changeBase !== 'HEAD' ? ` since ${loc.changeBase.slice(0, 7)}` : ' (uncommitted)'}`,
  );
  return parts.join(', ');
}

/** The lines of a suspect worth showing: its best lines with a few around them, at most MAX_EXCERPT. */
function excerpt(root: string, s: Suspect): string {
  let text: string[];
  try {
    text = readFileSync(join(root, s.file), 'utf8').split('\n');
  } catch {
    return '';
  }
  const wanted = new Set<number>();
  const whole = s.endLine - s.startLine + 1 <= MAX_EXCERPT;
  if (whole) for (let l = s.startLine; l <= s.endLine; l++) wanted.add(l);
  else {
    wanted.add(s.startLine);
    for (const hot of s.lines) for (let l = hot - AROUND; l <= hot + AROUND; l++) if (l >= s.startLine && l <= s.endLine && wanted.size < MAX_EXCERPT) wanted.add(l);
  }
  const lines = [...wanted].sort((a, b) => a - b);
  const out: string[] = [];
  lines.forEach((l, i) => {
    if (i > 0 && l !== lines[i - 1]! + 1) out.push('   ...');
    const mark = s.lines.includes(l) ? '>' : ' ';
    out.push(`${mark}${String(l).padStart(5)}| ${(text[l - 1] ?? '').slice(0, 160)}`);
  });
  return out.join('\n');
}

/** The analysis prompt's suspects: each with its score, evidence and code, best first. */
export function suspectsPromptBlock(loc: Localization, root: string, max = PROMPT_SUSPECTS): string {
  if (loc.suspects.length === 0) return `fixcycle found no suspect (evidence used: ${evidenceUsed(loc)}); read the code the failing tests call.`;
  const shown = loc.suspects.slice(0, max).map((s, i) => {
    const code = i < WITH_CODE ? excerpt(root, s) : '';
    return `${i + 1}. ${where(s)} (score ${s.score})\n${s.evidence.map((e) => `   - ${e}`).join('\n')}${code ? `\n\`\`\`\n${code}\n\`\`\`` : ''}`;
  });
  return `Ranked by fixcycle before asking you (evidence: ${evidenceUsed(loc)}); \`>\` marks the lines that scored highest. Start here; read more only if these do not explain the failures.\n${shown.join('\n')}`;
}

/** The suspects as iteration-N-analysis.md lists them. */
export function suspectsMarkdown(loc: Localization): string {
  const list = loc.suspects.map((s, i) => `${i + 1}. \`${where(s)}\` score ${s.score}; ${s.evidence.join('; ')}`).join('\n') || '- none';
  const notes = loc.notes.length ? `\n\nNot used: ${loc.notes.join('; ')}.` : '';
  return `## Suspects\nEvidence used: ${evidenceUsed(loc)}; ${loc.durationMs} ms.\n\n${list}${notes}\n`;
}

/** `src/a.js:fn:12-14` -> its parts; lines may be absent. */
function parsePoint(point: string): { file: string; fn?: string; from?: number; to?: number } {
  const m = /^(.+?\.[\w]+)(?::([^:]*))?(?::(\d+)(?:-(\d+))?)?/.exec(point.trim().replace(/^`|`$/g, ''));
  if (!m) return { file: point.trim() };
  return { file: m[1]!.replace(/^\.\//, ''), fn: m[2] || undefined, from: m[3] ? Number(m[3]) : undefined, to: m[4] ? Number(m[4]) : m[3] ? Number(m[3]) : undefined };
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
  return inside ? null : `modification points fall outside every suspect fixcycle ranked (top: ${suspects.slice(0, 3).map(where).join(', ')})`;
}
