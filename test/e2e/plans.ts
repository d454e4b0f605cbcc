/** Fix plans and edits for the calc fixture (test/fixtures/projects-loop/calc), shared by the loop's end-to-end tests. */

export const plan = (cause: string, point: string, approach = 'correct the arithmetic') => ({
  root_causes: [cause],
  modification_points: [point],
  affected_tests: [],
  confidence_score: 0.9,
  approach,
});

export const planAdd = { plan: plan('add() subtracts instead of adding', 'src/calc.js:add:1-3', 'return a + b') };
export const planMultiply = {
  plan: plan('multiply() adds 1 to the product', 'src/calc.js:multiply:5-7', 'return a * b'),
};

export const editAdd = { file: 'src/calc.js', search: 'return a - b;', replace: 'return a + b;' };
export const editMultiply = { file: 'src/calc.js', search: 'return a * b + 1;', replace: 'return a * b;' };
/** Fixes add() but breaks nine format tests: a regression of 35 points (75% -> 40%). */
export const editsBreakFormat = [
  editAdd,
  { file: 'src/format.js', search: "padStart(width, '0')", replace: "padStart(width, '0') + '!'" },
  { file: 'src/format.js', search: '${Math.round(ratio * 100)}%', replace: '${ratio}%' },
];

const DIAGNOSES = [
  'add() subtracts its second operand instead of adding it',
  'the sign handling of negative operands in calc.js is inverted',
  'integer coercion in the arithmetic helpers loses the operand order',
  'the module exports stale copies of the arithmetic helpers',
  'a floating point shortcut in multiply() adds a constant offset',
];

/** `n` analyses of the calc fixture, each with a different root cause, as an agent trying new ideas gives. */
export const attempts = (n: number) =>
  DIAGNOSES.slice(0, n).map((cause) => ({ plan: plan(cause, 'src/calc.js:add:1-3') }));
