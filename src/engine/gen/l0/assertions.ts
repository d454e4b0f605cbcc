import type { CaseLanguage } from '../cases/index.js';

/** What counts as an assertion beyond the shared pattern, per language. */
export const MORE_ASSERTIONS: Record<CaseLanguage, RegExp> = {
  js: /\bassert\b|\bexpectTypeOf\b|\.rejects\b|\.resolves\b/,
  // pytest.raises/warns, unittest's self.fail, mock's assert_called_*, numpy.testing's assert_*.
  python:
    /\bpytest\.(raises|warns|fail|deprecated_call)\s*\(|\bself\.fail\s*\(|\braises\s*\(|\.assert_\w+\s*\(|\braise\s+(AssertionError|self\.failureException)\b/,
  // t.Error*/Fatal*/Fail*, testify/quicktest/gocheck, and helpers given t (they report through it).
  go: /\bt\.(Error|Errorf|Fatal|Fatalf|Fail|FailNow)\s*\(|\b(assert|require|qt|is|c)\.\w+\s*\(|\b\w+\(\s*t\s*,/,
};
