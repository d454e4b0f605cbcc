import { join } from 'node:path';

/** The files gen adds to a session folder, in the design's layout. */
export function genPaths(sessionDir: string) {
  const processDir = join(sessionDir, '.process');
  const taskDir = join(sessionDir, '.task');
  return {
    contextPackage: join(processDir, 'test-context-package.json'),
    analysis: join(processDir, 'TEST_ANALYSIS_RESULTS.md'),
    analysisJson: join(processDir, 'test-analysis.json'),
    analysisOutput: join(processDir, 'test-analysis-cli-output.txt'),
    generateOutput: (round: number) => join(processDir, `generate-round-${round}-cli-output.txt`),
    l0Report: (round: number) => join(processDir, `l0-round-${round}.json`),
    qualityReport: join(processDir, 'quality-gate.json'),
    coverageBefore: join(processDir, 'coverage-before.json'),
    implPlan: join(sessionDir, 'IMPL_PLAN.md'),
    todoList: join(sessionDir, 'TODO_LIST.md'),
    task: (id: string) =>
      join(
        taskDir,
        id === 'IMPL-001.3'
          ? 'IMPL-001.3-validation.json'
          : id === 'IMPL-001.5'
            ? 'IMPL-001.5-review.json'
            : `${id}.json`,
      ),
    summary: join(sessionDir, '.summaries', 'gen-summary.md'),
  };
}
