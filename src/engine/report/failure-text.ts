/** A runner's failure text split into what a person reads first and the full text with its stack. */
export interface FailureText {
  message: string;
  stack?: string;
}

// A stack frame line as V8, Python tracebacks and Go panics print them.
const STACK_LINE = /^\s+at\s|^\s*File ".*", line \d+|^goroutine \d+ \[/;

/**
 * Splits failure text at its first stack frame: the lines before are the message, the whole text is the stack.
 * Text without a frame is all message.
 */
export function splitFailureText(text: string | undefined): FailureText | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.replace(/^\s*\n/, '').replace(/\s+$/, '');
  if (trimmed === '') return undefined;
  const lines = trimmed.split(/\r?\n/);
  const frame = lines.findIndex((line) => STACK_LINE.test(line));
  if (frame <= 0) return frame === 0 ? { message: lines[0]!.trim(), stack: trimmed } : { message: trimmed };
  return { message: lines.slice(0, frame).join('\n').trimEnd(), stack: trimmed };
}
