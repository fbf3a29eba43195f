// A field fold worker thread (started by field-fold-pool.ts): takes operations on its port, does its range of
// cells on the shared arrays, counts itself done in the shared control words and wakes the caller.
import { receiveMessageOnPort, workerData } from 'node:worker_threads';
import { addRange, closeRange } from './field-fold-kernels.js';
import { CONTROL, type FoldOp, type FoldWorkerData } from './field-fold-pool.js';

const { port, control, arrays } = workerData as FoldWorkerData;

/** Does one operation; returns false on 'stop'. */
function handle(m: FoldOp): boolean {
  if (m.op === 'stop') return false;
  try {
    if (m.op === 'add') addRange(arrays, m.input, m.from, m.to);
    else closeRange(arrays, m.params, m.from, m.to);
  } catch (e) {
    // the caller is blocked in Atomics.wait: it reads this message synchronously from its port
    port.postMessage({ error: e instanceof Error ? e.message : String(e) });
    Atomics.store(control, CONTROL.FAILED, 1);
  }
  Atomics.add(control, CONTROL.DONE, 1);
  Atomics.notify(control, CONTROL.DONE);
  return true;
}

// loaded: the pool waits for every worker to count itself here before the first operation
Atomics.add(control, CONTROL.READY, 1);
Atomics.notify(control, CONTROL.READY);

port.on('message', (m: FoldOp) => {
  if (!handle(m)) port.close();
  // take any operation already queued without a trip through the event loop
  for (let next = receiveMessageOnPort(port); next; next = receiveMessageOnPort(port)) {
    if (!handle(next.message as FoldOp)) { port.close(); return; }
  }
});
