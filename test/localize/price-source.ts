/** The shop module the per-test localization tests share: `discount` holds the bug, `total` every test runs. */
export const PRICE_JS = [
  "'use strict';", //                                 1
  'function total(items) {', //                       2
  '  let sum = 0;', //                                3
  '  for (const i of items) {', //                    4
  '    sum += i.price * i.qty;', //                   5
  '  }', //                                           6
  '  return sum;', //                                 7
  '}', //                                             8
  'function discount(amount, percent) {', //          9
  '  const cut = amount * percent;', //               10
  '  return amount + cut;', //                        11
  '}', //                                             12
  'function label(n) {', //                           13
  "  return n.toFixed(2) + ' EUR';", //               14
  '}', //                                             15
  'module.exports = { total, discount, label };', //  16
  '',
].join('\n');

/** The same module as an ES module (vitest's code under test), its lines where they are in PRICE_JS. */
export const PRICE_MJS = PRICE_JS.replace(
  'module.exports = { total, discount, label };',
  'export { total, discount, label };',
);
