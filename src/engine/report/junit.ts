import { createRequire } from 'node:module';
import type { XMLParser } from 'fast-xml-parser';
import type { RunError, TestCase } from '../types.js';
import type { ParseOutcome } from './parse-outcome.js';
import { readSuites } from './junit-suites.js';
import { firstLine, guarded, parsed, unusable, type ParseOptions } from './outcome.js';
import { uniquifyIds } from './test-id.js';

// Settings that read every JUnit variant fixcycle meets as the runner wrote it: values kept as text
// (a test named "1e3" stays "1e3"), whitespace in messages kept, entities decoded once.
const settings = {
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  isArray: (name: string) =>
    name === 'testsuite' || name === 'testcase' || name === 'failure' || name === 'error' || name === 'skipped',
};
// fast-xml-parser is required on first use: runs that read TAP or JSON never pay for loading it.
const require = createRequire(import.meta.url);
let xml: XMLParser | null = null;
// Numeric (`&#xA;`, libtest) and HTML named entities need htmlEntities, which costs time on every value:
// used only for documents that have such entities.
let xmlWithHtmlEntities: XMLParser | null = null;
const EXTRA_ENTITY = /&(?:#|(?!(?:amp|lt|gt|quot|apos);)[A-Za-z])/;

// A document ends with its root's closing tag (or is a self-closing root), perhaps followed by comments.
const COMPLETE_END = /(<\/testsuites?\s*>|<testsuites?\b[^<]*\/>)(\s*<!--[\s\S]*?-->)*\s*$/;

/**
 * Reads JUnit XML: `<testsuites>` or `<testsuite>` roots, nested suites, `<failure>`, `<error>`, `<skipped>`,
 * and several documents in one file (cargo nextest writes one `<?xml` document per test binary).
 */
export function parseJunit(text: string, options: ParseOptions = {}): ParseOutcome {
  return guarded('junit', () => {
    const documents = splitDocuments(text);
    if (documents.length === 0)
      return unusable('junit report is empty; the runner wrote nothing (did it crash before reporting?)');
    const tests: TestCase[] = [];
    const errors: RunError[] = [];
    let truncated = false;
    for (const document of documents) {
      const read = readDocument(document);
      if (!read.ok) return unusable(read.error);
      truncated ||= read.truncated;
      const suites = readSuites(read.roots, options.rootDir);
      tests.push(...suites.tests);
      errors.push(...suites.errors);
    }
    return parsed({ format: 'junit', tests: uniquifyIds(tests), errors, truncated });
  });
}

/** One document per `<?xml` declaration (cargo's libtest writes one per test binary into the same stream). */
function splitDocuments(text: string): string[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const documents: string[] = [];
  let start = 0;
  for (let next = body.indexOf('<?xml', 1); next !== -1; next = body.indexOf('<?xml', next + 1)) {
    documents.push(body.slice(start, next));
    start = next;
  }
  documents.push(body.slice(start));
  return documents.filter((doc) => /\S/.test(doc));
}

type DocumentRead = { ok: true; roots: unknown[]; truncated: boolean } | { ok: false; error: string };

// fast-xml-parser does not validate (validating costs about as much as parsing again): mis-nested tags are read
// leniently, while a cut-off document, what runners that die mid-write leave, is caught by its missing end.
function readDocument(document: string): DocumentRead {
  const complete = COMPLETE_END.test(document);
  let tree: unknown;
  try {
    tree = parserFor(document).parse(document);
  } catch (error) {
    if (complete)
      return {
        ok: false,
        error: `junit report is not well-formed XML (${firstLine(String((error as Error).message ?? error))}); regenerate it`,
      };
    // A cut-off document: read what was whole, up to the last closed test case.
    tree = salvage(document);
    if (tree === undefined)
      return {
        ok: false,
        error: 'junit report is cut off before its first test case; rerun the tests so the runner writes it whole',
      };
  }
  const roots = rootsOf(tree);
  if (roots === undefined) {
    return { ok: false, error: 'junit report has no <testsuites> or <testsuite> root; is this a JUnit XML file?' };
  }
  return { ok: true, roots, truncated: !complete };
}

function salvage(document: string): unknown {
  const end = document.lastIndexOf('</testcase>');
  const selfClosed = document.lastIndexOf('/>');
  const cut = Math.max(end >= 0 ? end + '</testcase>'.length : -1, selfClosed >= 0 ? selfClosed + 2 : -1);
  if (cut <= 0) return undefined;
  try {
    return parserFor(document).parse(document.slice(0, cut));
  } catch {
    return undefined;
  }
}

function parserFor(document: string): XMLParser {
  const { XMLParser: Parser } = require('fast-xml-parser') as typeof import('fast-xml-parser');
  if (EXTRA_ENTITY.test(document)) return (xmlWithHtmlEntities ??= new Parser({ ...settings, htmlEntities: true }));
  return (xml ??= new Parser(settings));
}

/** The `<testsuite>` elements at the top of a parsed document, wrapped in `<testsuites>` or not. */
function rootsOf(tree: unknown): unknown[] | undefined {
  if (typeof tree !== 'object' || tree === null) return undefined;
  const top = tree as Record<string, unknown>;
  if ('testsuites' in top) {
    const wrapper = top.testsuites;
    // `<testsuites/>` parses to an empty string: a valid report with no tests.
    return typeof wrapper === 'object' && wrapper !== null ? [wrapper] : [];
  }
  if (Array.isArray(top.testsuite)) return [{ testsuite: top.testsuite }];
  return undefined;
}
