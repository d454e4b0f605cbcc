/**
 * Normalizes a failure message so that failures with the same cause compare equal:
 * numbers, quoted values, paths and hex ids become placeholders, and stack lines are dropped.
 */
export function normalizeMessage(message: string): string {
  return message
    .split('\n')
    .filter((line) => !/^\s*at\s/.test(line))
    .slice(0, 6)
    .join(' ')
    .toLowerCase()
    .replace(/(['"`]).*?\1/g, '<str>')
    .replace(/(?:[a-z]:)?[\\/][\w.\-\\/]+/g, '<path>')
    .replace(/\b0x[0-9a-f]+\b/g, '<hex>')
    .replace(/-?\d+(?:\.\d+)?/g, '<n>')
    .replace(/\s+/g, ' ')
    .trim();
}

function bigrams(text: string): Map<string, number> {
  const grams = new Map<string, number>();
  for (let i = 0; i < text.length - 1; i++) {
    const gram = text.slice(i, i + 2);
    grams.set(gram, (grams.get(gram) ?? 0) + 1);
  }
  return grams;
}

/** Sørensen-Dice similarity of two normalized messages' character bigrams, 0 (unrelated) to 1 (same). */
export function messageSimilarity(a: string, b: string): number {
  const x = normalizeMessage(a);
  const y = normalizeMessage(b);
  if (x === y) return 1;
  if (x.length < 2 || y.length < 2) return 0;
  const gx = bigrams(x);
  const gy = bigrams(y);
  let shared = 0;
  for (const [gram, count] of gx) shared += Math.min(count, gy.get(gram) ?? 0);
  return (2 * shared) / (x.length - 1 + (y.length - 1));
}

/** 40: pairwise comparison is quadratic; beyond this many failures a sample says enough. */
const SAMPLE = 40;

/**
 * How alike a set of failures is: the mean pairwise similarity of their messages.
 * Fewer than two failures are not a pattern, so they score 0.
 */
export function failureSimilarity(messages: readonly string[]): number {
  const sample = messages.slice(0, SAMPLE);
  if (sample.length < 2) return 0;
  let sum = 0;
  let pairs = 0;
  for (let i = 0; i < sample.length; i++) {
    for (let j = i + 1; j < sample.length; j++) {
      sum += messageSimilarity(sample[i]!, sample[j]!);
      pairs++;
    }
  }
  return Math.round((sum / pairs) * 1000) / 1000;
}
