// The error a run's waits end with when one of its ranks failed.
import type { RankFailure } from './types.js';

/** A rank failed (crash, hang, start timeout...): carries the failure with its last log lines. */
export class RankFailedError extends Error {
  override name = 'RankFailedError';

  constructor(readonly failure: RankFailure) {
    const tail = failure.lastLines.length > 0 ? `\nlast lines of rank ${failure.rank}:\n  ${failure.lastLines.join('\n  ')}` : '';
    super(`${failure.message}${tail}`);
  }
}
