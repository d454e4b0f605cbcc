import { fixPlanSchema, type FixPlan } from '../session/schema.js';

export type PlanRead = { ok: true; plan: FixPlan } | { ok: false; error: string };

/** Candidate JSON texts in an agent's answer: ```json fences first, then balanced top-level objects, last first. */
export function candidates(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/```(?:json)?\s*\n([\s\S]*?)```/g)) found.push(match[1]!.trim());
  const objects: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"' && depth > 0) inString = true;
    else if (ch === '{') {
      if (depth === 0) start = i;
      depth++;
    } else if (ch === '}' && depth > 0) {
      depth--;
      if (depth === 0) objects.push(text.slice(start, i + 1));
    }
  }
  return [...found.reverse(), ...objects.reverse()];
}

/** Reads the fix plan from an analysis agent's final message and validates it. */
export function extractPlan(text: string): PlanRead {
  const texts = candidates(text);
  if (texts.length === 0) return { ok: false, error: 'no JSON object in the answer' };
  let firstError = '';
  for (const candidate of texts) {
    let raw: unknown;
    try {
      raw = JSON.parse(candidate);
    } catch {
      firstError ||= 'the JSON in the answer does not parse';
      continue;
    }
    const parsed = fixPlanSchema.safeParse(raw);
    if (parsed.success) return { ok: true, plan: parsed.data };
    const issue = parsed.error.issues[0]!;
    firstError ||= `the plan is invalid at ${issue.path.join('.') || 'top level'}: ${issue.message}`;
  }
  return { ok: false, error: firstError };
}
