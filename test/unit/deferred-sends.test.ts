// A rank's batch reports sent off its loop's critical path (src-main/solver/deferred-sends.ts): they go out at a later
// turn of the event loop, in the order queued, and a failed send surfaces at settled() instead of being lost (the sends
// queued after it are dropped: the run fails).
import { describe, expect, it } from 'vitest';
import { DeferredSends } from '../../src-main/solver/deferred-sends.js';

describe('deferred sends', () => {
  it('run later, not within the caller, and one after another in the order queued', async () => {
    const sends = new DeferredSends();
    const log: string[] = [];
    const send = (name: string, ms: number) => async () => {
      log.push(`${name} start`);
      await new Promise((r) => setTimeout(r, ms));
      log.push(`${name} end`);
    };
    sends.later(send('a', 20));
    sends.later(send('b', 1));
    log.push('caller goes on');
    await sends.settled();
    expect(log).toEqual(['caller goes on', 'a start', 'a end', 'b start', 'b end']);
  });

  it('a failed send fails settled(), the sends queued after it do not run (the run fails), and nothing is an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      const sends = new DeferredSends();
      const ran: string[] = [];
      sends.later(async () => { throw new Error('socket closed'); });
      await new Promise((r) => setTimeout(r, 20));
      sends.later(async () => { ran.push('next'); });
      await expect(sends.settled()).rejects.toThrow('socket closed');
      await new Promise((r) => setTimeout(r, 20));
      expect(ran).toEqual([]);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
