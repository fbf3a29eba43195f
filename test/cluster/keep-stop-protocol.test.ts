// Stop and keep of a multi-rank run, the agreement alone (no GPU, no processes): the ranks' RankKeepStop and the
// orchestrator's StopAndKeep over a stand-in channel that delivers every message after a random delay, with rank
// loops that exchange a message with every other rank at every step (as the migrant exchange does), under many seeded
// random schedules and stop times. Every schedule must end (no deadlock), every rank must end after the same submit,
// that submit must be the largest keep-point, and no rank may have run past it. test/cluster/multi-rank-keep.test.ts
// checks the same on real rank processes.
import { describe, expect, it } from 'vitest';
import { keepDecision, StopAndKeep } from '../../src-main/cluster/orchestrator/stop-and-keep.js';
import type { OrchestratorChannel } from '../../src-main/cluster/transport/orchestrator-channel.js';
import { RankKeepStop } from '../../src-main/solver/rank-keep-stop.js';
import { seededUniform } from '../seeded-random.js';

/** Waits a random number (0..max) of event-loop turns. */
async function turns(random: () => number, max: number): Promise<void> {
  const n = Math.floor(random() * (max + 1));
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
}

interface Outcome {
  /** Submits each rank ran. */
  submits: number[];
  /** Each rank's keep-point (null: the request came after it finished, or never reached it). */
  points: (number | null)[];
  decision: number | null;
  /** Submits each rank had begun (recording) when the stop was requested. */
  begunAtRequest: number[];
}

/**
 * One run of `ranks` rank loops of `submits` submits of `stepsPerSubmit` steps, the stop requested after `stopAfter`
 * turns of the orchestrator; every message (peer, keep-request, keep-point, keep-at) arrives after up to `lag` turns.
 */
async function simulate(seed: number, ranks: number, submits: number, stepsPerSubmit: number, stopAfter: number, lag: number): Promise<Outcome> {
  const random = seededUniform(seed);
  // peer messages: arrived[step][from][to]
  const arrivals = new Map<string, () => void>();
  const arrived = new Map<string, Promise<void>>();
  const slot = (step: number, from: number, to: number) => {
    const key = `${step}:${from}:${to}`;
    if (!arrived.has(key)) arrived.set(key, new Promise<void>((r) => arrivals.set(key, r)));
    return key;
  };
  const keepers: RankKeepStop[] = [];
  const points: (number | null)[] = new Array(ranks).fill(null);
  const handlers = new Map<string, (m: unknown) => void>();
  const channel = {
    on(type: string, handler: (m: unknown) => void) {
      handlers.set(type, handler);
      return () => handlers.delete(type);
    },
    async send(rank: number, message: { type: string; index?: number }) {
      void turns(random, lag).then(() => {
        if (message.type === 'keep-request') keepers[rank].request();
        else if (message.type === 'keep-at') keepers[rank].decide(message.index!);
      });
    },
  } as unknown as OrchestratorChannel;
  const orchestrator = new StopAndKeep(channel, Array.from({ length: ranks }, (_, r) => r), (e) => { throw e; });
  for (let r = 0; r < ranks; r++) {
    keepers.push(new RankKeepStop(async (index) => {
      points[r] = index;
      void turns(random, lag).then(() => handlers.get('keep-point')!({ rank: r, message: { type: 'keep-point', rank: r, index } }));
    }));
  }
  const begun = new Array(ranks).fill(0);
  const ran = new Array(ranks).fill(0);
  const loop = async (r: number) => {
    const keep = keepers[r];
    for (let i = 0; i < submits; i++) {
      if (keep.signal.aborted) break; // the loop's keepOnStop check at the submit boundary
      begun[r] = i + 1;
      for (let s = 0; s < stepsPerSubmit; s++) {
        const step = i * stepsPerSubmit + s;
        await turns(random, 3);
        for (let to = 0; to < ranks; to++) {
          if (to === r) continue;
          const key = slot(step, r, to);
          void turns(random, lag).then(() => arrivals.get(key)!());
        }
        for (let from = 0; from < ranks; from++) if (from !== r) await arrived.get(slot(step, from, r));
      }
      ran[r] = i + 1;
      // onBatch: the report, then the hold
      const k = keep.begin();
      await turns(random, 3);
      await keep.end(k);
    }
  };
  let begunAtRequest: number[] = [];
  const stopper = (async () => {
    await turns(() => 1, stopAfter);
    begunAtRequest = [...begun];
    orchestrator.request();
  })();
  // the ranks stay alive after their loops (they wait for done-ack) and still answer: the run ends with the agreement
  const agreed = (async () => { while (orchestrator.lastSubmit === null) await new Promise((r) => setImmediate(r)); })();
  const all = Promise.all([...Array.from({ length: ranks }, (_, r) => loop(r)), stopper, agreed]);
  const hung = new Promise<'hung'>((r) => setTimeout(() => r('hung'), 5000).unref());
  if ((await Promise.race([all, hung])) === 'hung') {
    throw new Error(`seed ${seed}: hung with ranks at submits ${ran.join(', ')}, keep-points ${points.join(', ')}, decision ${orchestrator.lastSubmit}`);
  }
  orchestrator.close();
  return { submits: ran, points, decision: orchestrator.lastSubmit, begunAtRequest };
}

describe('stop and keep: the ranks agree on the last submit', () => {
  it('keepDecision is the largest keep-point and refuses none', () => {
    expect(keepDecision([3, 5, 4])).toBe(5);
    expect(() => keepDecision([])).toThrow(/without any rank/);
  });

  it('under 400 random schedules of 2 to 4 ranks: no hang, every rank stops after the same submit, the largest keep-point', async () => {
    let midway = 0, differentPoints = 0, tooLate = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const random = seededUniform(seed * 7919);
      const ranks = 2 + Math.floor(random() * 3);
      const submits = 3 + Math.floor(random() * 6);
      const stepsPerSubmit = 1 + Math.floor(random() * 3);
      const stopAfter = Math.floor(random() * submits * stepsPerSubmit * 5);
      const o = await simulate(seed, ranks, submits, stepsPerSubmit, stopAfter, 1 + Math.floor(random() * 6));
      const why = `seed ${seed}: ${JSON.stringify(o)}`;
      // every rank ran the same submits
      expect(new Set(o.submits).size, why).toBe(1);
      expect(o.decision, why).not.toBeNull();
      expect(o.decision, why).toBe(Math.max(...o.points.map((p) => p ?? -1)));
      // through the decision, or to the end when the decision is past the last submit
      expect(o.submits[0], why).toBe(Math.min(o.decision! + 1, submits));
      // the decision is never before a submit some rank had already begun
      for (const b of o.begunAtRequest) expect(o.decision! + 1, why).toBeGreaterThanOrEqual(b);
      if (o.submits[0] < submits) midway += 1;
      else tooLate += 1;
      if (new Set(o.points).size > 1) differentPoints += 1;
      // the loop yields now and then (a worker must not block its event loop for long)
      if (seed % 50 === 0) await new Promise((r) => setImmediate(r));
    }
    console.log(`stop and keep: ${midway} schedules stopped mid-run, ${tooLate} ran to the end, ${differentPoints} with ranks at different keep-points`);
    // not vacuous: most schedules stop mid-run, and many have ranks answering from different submits
    expect(midway).toBeGreaterThan(150);
    expect(differentPoints).toBeGreaterThan(20);
    expect(tooLate).toBeGreaterThan(0);
  });

  it('a rank waiting for the decision gives up with the hard stop\'s reason', async () => {
    const stop = new AbortController();
    const keep = new RankKeepStop(async () => undefined, stop.signal);
    keep.request();
    const k = keep.begin();
    const waiting = keep.end(k);
    stop.abort(new Error('stopped by the orchestrator'));
    await expect(waiting).rejects.toThrow('stopped by the orchestrator');
    expect(keep.signal.aborted).toBe(false);
  });

  it('a request during the set-up holds after submit 0; a decision ends the loop after that submit only', async () => {
    const sent: number[] = [];
    const keep = new RankKeepStop(async (i) => { sent.push(i); });
    keep.request();
    keep.request(); // once
    expect(sent).toEqual([0]);
    keep.decide(2);
    for (let k = 0; k < 2; k++) {
      expect(keep.begin()).toBe(k);
      await keep.end(k);
      expect(keep.signal.aborted).toBe(false);
    }
    expect(keep.begin()).toBe(2);
    await keep.end(2);
    expect(keep.signal.aborted).toBe(true);
  });
});
