import { z } from 'zod';
import { candidates } from '../agents/plan.js';

/** The analysis agent's answer (phase 3). */
export const testAnalysisSchema = z.object({
  requirements: z
    .array(
      z.object({
        layer: z.enum(['L1', 'L2', 'L3']),
        target: z.string().min(1),
        cases: z.array(z.string().min(1)).min(1),
      }),
    )
    .min(1),
  ai_issues: z
    .array(
      z.object({
        file: z.string(),
        line: z.number().int().nonnegative().nullable().optional(),
        severity: z.enum(['critical', 'warning']),
        message: z.string().min(1),
      }),
    )
    .default([]),
  summary: z.string().min(1),
});
export type TestAnalysis = z.infer<typeof testAnalysisSchema>;

/** Reads and validates the analysis JSON from an answer (a fence allowed), or says what is wrong. */
export function readTestAnalysis(text: string): { ok: true; value: TestAnalysis } | { ok: false; why: string } {
  const texts = candidates(text);
  if (texts.length === 0) return { ok: false, why: 'no JSON object in the answer' };
  let first = '';
  for (const candidate of texts) {
    let raw: unknown;
    try {
      raw = JSON.parse(candidate);
    } catch {
      first ||= 'the JSON in the answer does not parse';
      continue;
    }
    const parsed = testAnalysisSchema.safeParse(raw);
    if (parsed.success) return { ok: true, value: parsed.data };
    const issue = parsed.error.issues[0]!;
    first ||= `the analysis is invalid at ${issue.path.join('.') || 'top level'}: ${issue.message}`;
  }
  return { ok: false, why: first };
}
