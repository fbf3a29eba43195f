// Text for the terminal: user-supplied names, notes, tags and messages can hold escape sequences (ANSI/OSC:
// colours, cursor moves, the window title), carriage returns, C1 controls or bidirectional overrides that
// would act on the terminal instead of being shown. Every such character is shown as a JSON-style \uXXXX
// escape, so the same helper also keeps --json output valid (JSON.stringify leaves DEL, C1 and U+202x raw).

/** C0 controls (but line feed), DEL, C1 controls, line/paragraph separators and bidirectional controls. */
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The same, line feed included (for one cell of a table). */
const UNSAFE_IN_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** One character as a \uXXXX escape. */
function escapeChar(ch: string): string {
  return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Text safe to print: control characters shown as \uXXXX; line feeds kept unless `oneLine`. */
export function forTerminal(text: string, oneLine = false): string {
  return text.replace(oneLine ? UNSAFE_IN_LINE : UNSAFE, escapeChar);
}

/** Writes text to stdout through forTerminal (line feeds kept). */
export function printSafe(text: string): void {
  process.stdout.write(forTerminal(text));
}
