// Errors of the transport: each names what went wrong, who was involved and how to fix it.

/** Base class of every transport error. */
export class TransportError extends Error {
  override name = 'TransportError';
}

/** A received message failed validation: names the sender, the message kind and the field. */
export class MessageValidationError extends TransportError {
  override name = 'MessageValidationError';

  /** sender: 'rank 2', 'the orchestrator'; kind: the message's `type` when known; field: dotted path when known. */
  constructor(
    readonly sender: string,
    readonly kind: string | null,
    readonly field: string | null,
    readonly detail: string,
  ) {
    const what = kind === null ? 'message' : `'${kind}' message`;
    const where = field === null ? '' : ` field '${field}':`;
    super(
      `invalid ${what} from ${sender}:${where} ${detail}. ` +
        'Sender and receiver disagree on the message format: run every process from the same build (npm run build).',
    );
  }
}

/** Waiting for messages took longer than allowed: names what was awaited and who is missing. */
export class TransportTimeoutError extends TransportError {
  override name = 'TransportTimeoutError';

  /** missingRanks: the ranks that did not send in time (empty when not about ranks). */
  constructor(message: string, readonly missingRanks: number[] = []) {
    super(message);
  }
}

/** The channel was closed while something was still waiting on it. */
export class ChannelClosedError extends TransportError {
  override name = 'ChannelClosedError';
}

/** 'rank 1', 'ranks 1, 3' for messages. */
export function describeRanks(ranks: readonly number[]): string {
  return ranks.length === 1 ? `rank ${ranks[0]}` : `ranks ${ranks.join(', ')}`;
}

/** The orchestrator sent `stop`: a rank's pending and later receives end with this; exit cleanly on it. */
export class StopRequestedError extends TransportError {
  override name = 'StopRequestedError';

  constructor(readonly reason: string | undefined) {
    super(`the orchestrator asked this rank to stop${reason ? ` (${reason})` : ''}`);
  }
}
