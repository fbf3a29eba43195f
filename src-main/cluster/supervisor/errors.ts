// The error a run's waits end with when one of its ranks failed, and the text that explains a failure.
import type { RankFailure } from './types.js';

/** A rank's last log lines minus the ones its own report already says (a `rank N: ` prefix aside). */
function linesNotIn(message: string, lines: string[]): string[] {
  return lines.filter((line) => {
    const text = line.replace(/^rank \d+: /, '').trim();
    return text.length > 0 && !message.includes(text);
  });
}

/** The failure's sentence and the rank's last log lines (those its report did not already say). */
export function failureText(failure: RankFailure): string {
  const lines = failure.reason === 'reported' ? linesNotIn(failure.message, failure.lastLines) : failure.lastLines;
  const tail = lines.length > 0 ? `\nlast lines of rank ${failure.rank}:\n  ${lines.join('\n  ')}` : '';
  return `${failure.message}${tail}`;
}

/** A rank failed (crash, hang, start timeout...): carries the failure with its last log lines. */
export class RankFailedError extends Error {
  override name = 'RankFailedError';

  constructor(readonly failure: RankFailure) {
    super(failureText(failure));
  }
}
