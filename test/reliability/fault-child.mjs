// A child process for fault tests that must not hit the test runner itself (file size limits): does one
// action with the compiled product code (out/) and prints {ok, error} as JSON on stdout.
//   node fault-child.mjs write-runs DATA_DIR N_STEPS   writes a run with N_STEPS step rows through RunStore
//   node fault-child.mjs write-file PATH BYTES         writes BYTES bytes to PATH with writeFileAtomic
const out = new URL('../../out/src-main/', import.meta.url);
const [action, target, amount] = process.argv.slice(2);

// Writes one run and its steps to the run database in `dir`.
async function writeRuns(dir, nSteps) {
  const { RunStore } = await import(new URL('store/run-store.js', out).href);
  const store = RunStore.open({ dataDir: dir });
  try {
    const id = store.createRun({
      project: 'fault', caseName: 'box', caseJson: { name: 'box' }, seed: 1, ranks: 1, gpus: 1,
      adapter: { description: 'child', backend: 'none' }, productVersion: '0.0.0-test',
    });
    const steps = Array.from({ length: nSteps }, (_, i) => ({ step: i + 1, particles: 1000 + i, injected: 0, collisions: i, candidates: 2 * i }));
    store.appendSteps(id, steps, []);
  } finally {
    store.close();
  }
}

// Writes `bytes` bytes to `path` through the atomic writer.
async function writeFile(path, bytes) {
  const { writeFileAtomic } = await import(new URL('reports/write-atomic.js', out).href);
  await writeFileAtomic(path, Buffer.alloc(bytes, 0x61));
}

try {
  if (action === 'write-runs') await writeRuns(target, Number(amount));
  else if (action === 'write-file') await writeFile(target, Number(amount));
  else throw new Error(`unknown action ${action}`);
  process.stdout.write(JSON.stringify({ ok: true }) + '\n');
} catch (e) {
  process.stdout.write(JSON.stringify({ ok: false, error: { name: e?.name, code: e?.code, message: e?.message } }) + '\n');
}
