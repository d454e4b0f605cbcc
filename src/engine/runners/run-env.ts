/**
 * The environment of a test command: plain output unless the user asked for colour, and none of the
 * markers a test runner sets for its own workers. fixcycle started from inside vitest, jest or node:test
 * (its own tests, a CI step) would otherwise make the project's runner think it is one of those workers.
 */
export function testCommandEnv(scriptEnv: Record<string, string>): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const key of Object.keys(process.env)) {
    if (key === 'VITEST' || key.startsWith('VITEST_') || key === 'JEST_WORKER_ID' || key === 'NODE_TEST_CONTEXT') env[key] = undefined;
  }
  // Plain text keeps test-output.log readable and the summary line parseable.
  if (process.env.FORCE_COLOR === undefined) env.NO_COLOR = '1';
  return { ...env, ...scriptEnv };
}
