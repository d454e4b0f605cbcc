import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fillTemplate, loadTemplate } from '../prompts/templates.js';
import type { TestAnalysis } from './analysis-schema.js';
import { lineRanges } from './coverage/model.js';
import type { ContextPackage } from './phase-context.js';

function changedFilesBlock(pkg: ContextPackage, root: string, withSource: boolean): string {
  return pkg.changed_files
    .map((f) => {
      const reach =
        f.tests_reaching === 'all'
          ? 'every test (a shared file)'
          : f.tests_reaching.length
            ? f.tests_reaching.join(', ')
            : 'no existing test reaches it';
      let text = `- ${f.file}: lines ${lineRanges(f.lines)}; tests reaching it: ${reach}`;
      if (withSource) {
        const source = (() => {
          try {
            return readFileSync(join(root, f.file), 'utf8');
          } catch {
            return '';
          }
        })();
        text += `\n\n\`\`\`\n${source.slice(0, 8_000)}\n\`\`\``;
      }
      return text;
    })
    .join('\n');
}

function conventionsBlock(pkg: ContextPackage): string {
  const c = pkg.conventions;
  const lines = [
    `- runner: ${pkg.runner.name} (\`${pkg.runner.command.join(' ')}\`)`,
    `- tests live in: ${c.locations.join(', ') || '(no tests yet)'}; naming: ${c.naming}${c.module_system === 'n/a' ? '' : `; modules: ${c.module_system}`}`,
    `- assertion style: ${c.assertion_style}`,
    ...(c.helpers.length ? [`- shared helpers: ${c.helpers.join(', ')}`] : []),
  ];
  if (c.representative)
    lines.push(`- a representative test, ${c.representative.file}:\n\n\`\`\`\n${c.representative.content}\n\`\`\``);
  return lines.join('\n');
}

function coverageBlock(pkg: ContextPackage): string {
  if (!pkg.coverage.measured) return `Not measured: ${pkg.coverage.reason}.`;
  return pkg.coverage.files
    .map(
      (f) =>
        `- ${f.file}: ${f.lines ?? '-'}% of changed lines, ${f.branches ?? '-'}% of their branches; uncovered: ${lineRanges(f.uncovered) || 'none'}`,
    )
    .join('\n');
}

export function renderTestAnalysisPrompt(pkg: ContextPackage, contextPath: string, layers: string[]): string {
  return fillTemplate(
    loadTemplate('test-analysis'),
    {
      description: pkg.input.description,
      changed_files: changedFilesBlock(pkg, '', false),
      conventions: conventionsBlock(pkg),
      coverage: coverageBlock(pkg),
      layers: layers.join(', '),
      context_path: contextPath,
    },
    'templates/test-analysis.v1.md',
  );
}

const RULES = [
  '- Add or change test files only (where the project keeps its tests). A change to any source file rejects and reverts the whole round.',
  "- Import only what the modules really export; every test needs at least one assertion on the code's result.",
  '- No placeholders (TODO, "not implemented"), no .only/.skip, no assertions on constants, no mocks imported by source code.',
  '- A test that fails because the code is wrong is welcome: it stays for the fix loop. Do not change the code to make it pass.',
  '- Do not commit; fixcycle validates the tests (L0), runs each one 5 times, and keeps those that add coverage.',
].join('\n');

export function renderGeneratePrompt(input: {
  round: number;
  taskPath: string;
  analysis: TestAnalysis;
  pkg: ContextPackage;
  root: string;
  feedback: string[];
  feedbackKind: string;
}): string {
  const requirements = input.analysis.requirements
    .map((r) => `- [${r.layer}] ${r.target}\n${r.cases.map((c) => `  - ${c}`).join('\n')}`)
    .join('\n');
  const heading =
    input.feedbackKind === 'l0'
      ? '## Your last tests failed code validation (IMPL-001.3); fix these findings'
      : input.feedbackKind === 'coverage'
        ? '## The quality gate (IMPL-001.5): changed lines the kept tests leave uncovered, and the tests it rejected with why; add tests that run those lines, and do not repeat what was rejected'
        : input.feedbackKind === 'source'
          ? '## Your last round was rejected and reverted'
          : '';
  const feedback = input.feedback.length ? `${heading}\n${input.feedback.map((f) => `- ${f}`).join('\n')}` : '';
  return fillTemplate(
    loadTemplate('generate'),
    {
      round: input.round,
      task_path: input.taskPath,
      requirements,
      changed_files: changedFilesBlock(input.pkg, input.root, true),
      conventions: conventionsBlock(input.pkg),
      feedback,
      rules: RULES,
    },
    'templates/generate.v1.md',
  );
}
