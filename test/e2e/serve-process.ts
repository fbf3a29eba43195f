// Starts `dsmc serve` (the built CLI) on a free port with a temporary data folder, for the end-to-end tests.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** A running `dsmc serve`: its URL (with token), data folder, and stop. */
export interface ServeProcess {
  url: string;
  dataDir: string;
  output(): string;
  stop(): Promise<void>;
}

/** Spawns `node bin/dsmc.js serve --port 0 --data-dir TMP` and waits for the URL it prints. */
export async function startServe(): Promise<ServeProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'dsmc-e2e-'));
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'bin', 'dsmc.js'), 'serve', '--port', '0', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
  child.stderr!.on('data', (d: Buffer) => { out += d.toString(); });
  const url = await new Promise<string>((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`dsmc serve printed no URL within 30 s:\n${out}`)), 30_000);
    const look = () => {
      const m = /open (http:\/\/\S+)/.exec(out);
      if (m) { clearTimeout(timer); res(m[1]); }
    };
    child.stdout!.on('data', look);
    child.on('exit', (code) => { clearTimeout(timer); rej(new Error(`dsmc serve exited (${code}):\n${out}`)); });
  });
  return {
    url, dataDir, output: () => out,
    stop: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
