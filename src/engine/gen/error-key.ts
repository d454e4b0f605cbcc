import type { RunError } from '../types.js';

/**
 * What an error outside tests is, run after run: a part of the test script by its command (`eslint .` failing
 * says different things as the code changes), any other error by its file and first line.
 */
export function errorKey(error: RunError): string {
  const part = /^`([^`]+)` \(the test script runs (?:before|after) the tests\)/.exec(error.message);
  if (part) return `part: ${part[1]}`;
  return `${error.file ?? ''}: ${error.message.split('\n')[0]!.trim()}`;
}
