// The sentence that explains each kind of rank failure and what to do about it (one entry per reason).
import type { FailureReason } from './types.js';

/** What the message builder knows about the failing rank. */
export interface FailureFacts {
  rank: number;
  gpu: string;
  pid: number | null;
  code: number | null;
  signal: string | null;
  heartbeatTimeoutMs: number;
  startTimeoutMs: number;
  /** Free text for 'spawn' and 'reported'. */
  detail: string;
}

const MESSAGES: Record<FailureReason, (f: FailureFacts) => string> = {
  exit: (f) => `exited with code ${f.code} (its last log lines say why)`,
  signal: (f) =>
    `was killed by ${f.signal}${f.signal === 'SIGKILL' ? ' (often the out-of-memory killer: fewer particles per rank or more GPUs)' : ''}`,
  hang: (f) =>
    `sent nothing for ${f.heartbeatTimeoutMs} ms and was stopped as hung (a blocked event loop, a GPU wait that never ends, ` +
    'or a deadlock in an exchange); raise heartbeatTimeoutMs only if its steps are legitimately that long',
  'start-timeout': (f) =>
    `did not say hello within ${f.startTimeoutMs} ms of starting (stuck opening its GPU, or a wrong orchestrator address); ` +
    'check its log lines, or raise startTimeoutMs on slow machines',
  spawn: (f) => `could not be started: ${f.detail}`,
  reported: (f) => `failed: ${f.detail}`,
};

/** One sentence for a failure: 'rank 1 (gpu 0, pid 123) exited with code 3; ...'. */
export function describeFailure(reason: FailureReason, facts: FailureFacts): string {
  return `rank ${facts.rank} (gpu ${facts.gpu}, pid ${facts.pid ?? '-'}) ${MESSAGES[reason](facts)}`;
}
