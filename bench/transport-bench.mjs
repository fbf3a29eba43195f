// Measures the zeromq transport alone, the way ranks use it: N processes, each step every process sends
// `bytes` to each other process (PUSH -> PULL over ipc://) and waits for theirs; prints the mean time per
// exchange step. Run: node bench/transport-bench.mjs [processes=2] [bytes=2.4e6] [steps=200]
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as zmq from 'zeromq';

const [procs = 2, bytes = 2.4e6, steps = 200] = process.argv.slice(2, 5).map(Number);

/** One process of the exchange: binds its PULL, connects PUSHes to the others, exchanges `steps` times. */
async function worker(rank, dir) {
  const buf = Number(process.env.TB_SOCKBUF ?? 0);
  const opts = buf > 0 ? { receiveBufferSize: buf } : {};
  const pull = new zmq.Pull(opts);
  const tcp = process.env.TB_MODE === 'tcp';
  const address = (r) => (tcp ? `tcp://127.0.0.1:${47000 + r}` : `ipc://${join(dir, `r${r}`)}`);
  await pull.bind(address(rank));
  const pushes = [];
  for (let r = 0; r < procs; r++) {
    if (r === rank) continue;
    const p = new zmq.Push(buf > 0 ? { sendBufferSize: buf } : {});
    p.connect(address(r));
    pushes.push(p);
  }
  const payload = Buffer.alloc(Math.round(bytes), rank);
  const inbox = [];
  let wake = null;
  (async () => { for await (const [m] of pull) { inbox.push(m); wake?.(); } })();
  const take = async () => { while (inbox.length === 0) await new Promise((r) => { wake = r; }); return inbox.shift(); };
  await new Promise((r) => setTimeout(r, 500)); // connections settle
  const t0 = performance.now();
  const shm = process.env.TB_MODE === 'shm';
  const others = Array.from({ length: procs }, (_, r) => r).filter((r) => r !== rank);
  for (let s = 0; s < steps; s++) {
    if (shm) {
      // the payload through a file in /dev/shm (tmpfs), zeromq carries only its name
      await Promise.all(others.map((r, k) => {
        const name = join(dir, `s${s % 4}-${rank}-${r}`);
        writeFileSync(name, payload);
        return pushes[k].send(name);
      }));
      for (let k = 0; k < procs - 1; k++) readFileSync((await take()).toString());
    } else {
      await Promise.all(pushes.map((p) => p.send(process.env.TB_NOCOPY ? payload : Buffer.from(payload))));
      for (let k = 0; k < procs - 1; k++) await take();
    }
  }
  const ms = (performance.now() - t0) / steps;
  process.send?.({ rank, ms });
  process.exit(0);
}

if (process.env.TB_RANK) {
  await worker(Number(process.env.TB_RANK), process.env.TB_DIR);
} else {
  const dir = mkdtempSync(join(process.env.TB_MODE === 'shm' ? '/dev/shm' : tmpdir(), 'tb-'));
  const results = await Promise.all(Array.from({ length: procs }, (_, rank) => new Promise((resolve) => {
    const c = fork(new URL(import.meta.url).pathname, [], { env: { ...process.env, TB_RANK: String(rank), TB_DIR: dir } });
    c.on('message', resolve);
  })));
  const mean = results.reduce((a, r) => a + r.ms, 0) / results.length;
  console.log(`${procs} processes, ${(bytes / 1e6).toFixed(2)} MB to each other process per step: ${mean.toFixed(3)} ms per exchange step`);
}
