// What encoding a rank's batch report costs on this CPU (issue 24, eighteenth session): a submit's `batch` message
// with STEPS step records, encoded with the sender-side zod validation (encodeMessage's default) and without it (the
// rank's send since: UNCHECKED_OUTGOING), ROUNDS times each; prints the median, p90 and max of each in milliseconds.
// Usage (after npx tsc -p tsconfig.json): node bench/batch-report-encode.mjs [STEPS=100] [ROUNDS=200]
import { encodeMessage } from '../out/src-main/cluster/transport/message-codec.js';

const stepCount = Number(process.argv[2] ?? 100);
const rounds = Number(process.argv[3] ?? 200);
const step = (s) => ({ step: s, particlesBefore: 62911324, injected: 0, particlesAfter: 62911324, collisions: 4449000, candidates: 8900000, sent: 65500, received: 65480, exchangeSeconds: 0.0012 });
const message = { type: 'batch', rank: 0, index: 3, steps: Array.from({ length: stepCount }, (_, k) => step(k + 1)), passes: 0, particles: 62911324, gpuSeconds: 0.6, frameBytes: [] };

/** Milliseconds of each of `rounds` encodings, sorted. */
function time(validate) {
  const ms = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    encodeMessage(message, [], 'rank 0', validate);
    ms.push(performance.now() - t0);
  }
  return ms.sort((a, b) => a - b);
}

for (const validate of [true, false]) {
  const ms = time(validate);
  const at = (q) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))].toFixed(3);
  console.log(`${validate ? 'validated' : 'unchecked'}: ${stepCount} steps, ${rounds} rounds: median ${at(0.5)} ms, p90 ${at(0.9)} ms, max ${at(1)} ms`);
}
