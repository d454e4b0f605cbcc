import { beforeAll, describe, expect, it } from 'vitest';
import { findModuleReferences, initModuleLexer } from '../../src/engine/affected/js-references.js';

const specifiers = (source: string): string[] =>
  findModuleReferences(source).map((r) => r.specifier + (r.glob ? ' (glob)' : ''));

describe('findModuleReferences', () => {
  beforeAll(() => initModuleLexer());

  it('leaves out every type-only form and keeps value imports', () => {
    const source = [
      `import type { A } from './a-type';`,
      `import { type B, type C } from './bc-types';`,
      `export type { D } from './d-type';`,
      `export type * from './star-type';`,
      `export { type E } from './e-type';`,
      `import type F = require('./f-type');`,
      `let g: typeof import('./g-type');`,
      `type H = import('./h-type').H;`,
      `import type from './default-named-type';`,
      `import { type I, j } from './mixed';`,
      `export * from './star';`,
      `export { k } from './named';`,
      `import './side-effect';`,
    ].join('\n');
    expect(specifiers(source)).toEqual(['./default-named-type', './mixed', './star', './named', './side-effect']);
  });

  it('finds require() calls but not those in strings, comments, regexes, template text or member calls', () => {
    const source = [
      `const a = require('./a');`,
      `const b = require("./b").b;`,
      `// require('./in-comment')`,
      `/* require('./in-block-comment') */`,
      `const s = "require('./in-string')";`,
      `const r = /require\\('\\.\\/in-regex'\\)/;`,
      "const t = `${require('./in-substitution')} require('./in-template-text')`;",
      `const p = require.resolve('./resolve-only');`,
      `other.require('./member-call');`,
      `const ratio = total / count; const c = require('./after-division');`,
      'const d = require(`./plugins/${name}.js`);',
      `module.exports = require('./reexport');`,
    ].join('\n');
    expect(specifiers(source)).toEqual([
      './a',
      './b',
      './in-substitution',
      './after-division',
      './plugins/*.js (glob)',
      './reexport',
    ]);
  });

  it('reads dynamic imports, template globs included, and skips awaited type positions only when type-only', () => {
    const source =
      'const m = await import("./lazy.js");\nconst l = import(`./locales/${lang}.js`);\nconst n = import(name);';
    expect(specifiers(source)).toEqual(['./lazy.js', './locales/*.js (glob)']);
  });

  it('still finds imports in JSX that es-module-lexer rejects (an apostrophe in the text)', () => {
    const source = [
      `import React from 'react';`,
      `import type { Props } from './props';`,
      `import { Button } from './button';`,
      `export const App = () => <p>Don't click <Button /></p>;`,
      `const Lazy = React.lazy(() => import('./lazy-view'));`,
      `export { helper } from './helper';`,
      `const legacy = require('./legacy');`,
    ].join('\n');
    expect(specifiers(source)).toEqual(['react', './button', './lazy-view', './helper', './legacy']);
  });
});
