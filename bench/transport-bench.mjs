// Measures the zeromq transport alone, the way ranks use it: N processes, each step every process sends
// `bytes` to each other process (PUSH -> PULL over ipc://) and waits for theirs; prints the mean time per
// exchange step. Run: node bench/transport-bench.mjs [processes=2] [bytes=2.4e6] [steps=200]
// TB_MODE=zmq (default: payload in zeromq frames), shmfd (payload in /dev/shm files opened once, zeromq
// carries a note), shm (a new file per message), tcp; TB_NOCOPY=1 sends without copying the payload first.
import { fork } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, readSync, writeFileSync, writeSync } from 'node:fs';
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
  // shmfd: one file per (sender, receiver, step parity) in /dev/shm, opened once; zeromq carries a short note
  const fdMode = process.env.TB_MODE === 'shmfd';
  const fileOf = (from, to, parity) => join(dir, `f-${from}-${to}-${parity}`);
  const outFds = fdMode ? others.map((r) => [0, 1].map((p) => openSync(fileOf(rank, r, p), 'w+'))) : [];
  const inFds = new Map();
  const landing = Buffer.allocUnsafe(Math.round(bytes));
  for (let s = 0; s < steps; s++) {
    if (fdMode) {
      await Promise.all(others.map((r, k) => {
        writeSync(outFds[k][s % 2], payload, 0, payload.length, 0);
        return pushes[k].send(`${rank} ${s % 2}`);
      }));
      for (let k = 0; k < procs - 1; k++) {
        const [from, parity] = (await take()).toString().split(' ').map(Number);
        const key = `${from}-${parity}`;
        if (!inFds.has(key)) inFds.set(key, openSync(fileOf(from, rank, parity), 'r'));
        readSync(inFds.get(key), landing, 0, landing.length, 0);
      }
    } else if (shm) {
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
  const dir = mkdtempSync(join(process.env.TB_MODE?.startsWith('shm') ? '/dev/shm' : tmpdir(), 'tb-'));
  const results = await Promise.all(Array.from({ length: procs }, (_, rank) => new Promise((resolve) => {
    const c = fork(new URL(import.meta.url).pathname, [], { env: { ...process.env, TB_RANK: String(rank), TB_DIR: dir } });
    c.on('message', resolve);
  })));
  const mean = results.reduce((a, r) => a + r.ms, 0) / results.length;
  console.log(`${procs} processes, ${(bytes / 1e6).toFixed(2)} MB to each other process per step: ${mean.toFixed(3)} ms per exchange step`);
}
