/**
 * The environment of a test command: the user's own, less the markers a test runner sets for its own
 * workers. fixcycle started from inside vitest, jest or node:test (its own tests, a CI step) would otherwise
 * make the project's runner think it is one of those workers. Nothing is added: the tests must behave as they
 * do in the user's shell (a CLI's tests check its colours under NO_COLOR and FORCE_COLOR), so the output is
 * captured as the runner writes it to a pipe and colour codes are stripped where it is read.
 */
export function testCommandEnv(scriptEnv: Record<string, string>): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const key of Object.keys(process.env)) {
    if (key === 'VITEST' || key.startsWith('VITEST_') || key === 'JEST_WORKER_ID' || key === 'NODE_TEST_CONTEXT')
      env[key] = undefined;
  }
  return { ...env, ...scriptEnv };
}
