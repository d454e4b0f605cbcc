import { readFile } from 'node:fs/promises';
import { writeJsonAtomic, writeTextAtomic } from '../session/atomic.js';
import { callChain } from './agent-call.js';
import { readTestAnalysis, type TestAnalysis } from './analysis-schema.js';
import { node, type GenContext } from './gen-context.js';
import { genPaths } from './paths.js';
import type { ContextPackage } from './phase-context.js';
import { renderTestAnalysisPrompt } from './prompts.js';

/** A problem that stops the pipeline; the message names cause and fix. */
export class GenPhaseError extends Error {}

export async function readContextPackage(sessionDir: string): Promise<ContextPackage> {
  return JSON.parse(await readFile(genPaths(sessionDir).contextPackage, 'utf8')) as ContextPackage;
}

export async function readAnalysis(sessionDir: string): Promise<TestAnalysis> {
  return JSON.parse(await readFile(genPaths(sessionDir).analysisJson, 'utf8')) as TestAnalysis;
}

function analysisMarkdown(a: TestAnalysis, pkg: ContextPackage, agent: string): string {
  const byLayer = (layer: string) =>
    a.requirements
      .filter((r) => r.layer === layer)
      .map((r) => `### ${r.target}\n${r.cases.map((c) => `- ${c}`).join('\n')}`)
      .join('\n\n') || '_none_';
  return `# Test Analysis Results

Session: ${pkg.session_id}
Input: ${pkg.input.description}
Analysed by: ${agent}

## Summary
${a.summary}

## L0 Static analysis
Done by fixcycle in IMPL-001.3 (typecheck, lint, imports, placeholders, assertions, focused/skipped tests).

## L1 Unit tests
${byLayer('L1')}

## L2 Integration tests
${byLayer('L2')}

## L3 End-to-end tests
${byLayer('L3')}

## AI code issues
${a.ai_issues.map((i) => `- **${i.severity}** ${i.file}${i.line ? `:${i.line}` : ''}: ${i.message}`).join('\n') || '_none found_'}
`;
}

/** Phase 3: the agent chain (read-only) says which tests the change needs; fixcycle writes TEST_ANALYSIS_RESULTS.md. */
export async function analyse(ctx: GenContext): Promise<void> {
  const paths = genPaths(ctx.session.paths.dir);
  const pkg = await readContextPackage(ctx.session.paths.dir);
  node(ctx, 'analysis', 'running', 'asking the agent for the test requirements (read-only)');
  const prompt = renderTestAnalysisPrompt(pkg, paths.contextPackage, ctx.options.layers);
  // Read-only: whatever an analysis changes is put back.
  const undo = async (): Promise<void> => ctx.repo.restoreFiles(await ctx.repo.changedFiles());
  const outcome = await callChain(
    ctx,
    {
      role: 'analyze',
      taskId: 'test-analysis',
      taskPath: paths.contextPackage,
      prompt,
      transcriptPath: paths.analysisOutput,
      undo,
    },
    (call) => readTestAnalysis(call.finalText),
  );
  await undo();
  if (!outcome.value) {
    const tried =
      outcome.calls.map((c) => `${c.agent}: ${c.classification}${c.detail ? ` (${c.detail})` : ''}`).join('; ') ||
      'no agent available';
    node(ctx, 'analysis', 'failed', tried);
    throw new GenPhaseError(
      `no agent produced a valid test analysis (${tried}): see ${paths.analysisOutput}, then resume with \`fixcycle run --resume-session ${ctx.session.id}\``,
    );
  }
  const wanted = new Set(ctx.options.layers);
  const analysis = { ...outcome.value, requirements: outcome.value.requirements.filter((r) => wanted.has(r.layer)) };
  if (analysis.requirements.length === 0) analysis.requirements = outcome.value.requirements;
  await writeJsonAtomic(paths.analysisJson, analysis);
  await writeTextAtomic(paths.analysis, analysisMarkdown(analysis, pkg, outcome.agent!));
  const critical = analysis.ai_issues.filter((i) => i.severity === 'critical').length;
  node(
    ctx,
    'analysis',
    'done',
    `${outcome.agent}: ${analysis.requirements.length} requirement(s), ${analysis.ai_issues.length} AI issue(s)${critical ? ` (${critical} critical)` : ''}`,
  );
}
