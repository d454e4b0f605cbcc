/**
 * A mocha reporter file fixcycle writes for each run: mocha takes one reporter, and fixcycle needs two,
 * the spec reporter for the person watching and the JSON reporter (to `reporterOption.output`) for itself.
 * It loads the mocha that is running it, found from the running binary, else from the project.
 */
export const MOCHA_REPORTER_SOURCE = `'use strict';
const path = require('node:path');
const from = [process.argv[1] ? path.dirname(process.argv[1]) : process.cwd(), process.cwd()];
const mocha = require(require.resolve('mocha', { paths: from }));
function FixcycleReporter(runner, options) {
  new mocha.reporters.Spec(runner, options);
  new mocha.reporters.JSON(runner, options);
}
module.exports = FixcycleReporter;
`;
