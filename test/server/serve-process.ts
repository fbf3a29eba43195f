// A real `dsmc serve` child process on loopback for the hostile-input tests: started on a free port with a temp data
// folder, its URL, port and token, whether it exited, and raw HTTP requests to it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

export interface ServeProcess {
  port: number;
  token: string;
  dataDir: string;
  /** The exit code once it exited, else 'running'. */
  exit(): number | null | 'running';
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  stop(): void;
}

/** Starts `dsmc serve --port 0` (needs the compiled out/); resolves once it printed its URL. */
export async function startServeProcess(): Promise<ServeProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'dsmc-serve-proc-'));
  const dataDir = join(dir, 'data');
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'bin', 'dsmc.js'), 'serve', '--port', '0', '--data-dir', dataDir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let exited: number | null | 'running' = 'running';
  let err = '';
  child.on('exit', (code) => { exited = code; });
  child.stderr!.on('data', (d: Buffer) => { err += d.toString(); });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /open (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', () => reject(new Error(`dsmc serve exited before it printed its URL: ${out}${err}`)));
  });
  const u = new URL(url);
  return {
    port: Number(u.port), token: u.searchParams.get('token')!, dataDir,
    exit: () => exited, stderr: () => err,
    stop: () => { child.kill('SIGTERM'); rmSync(dir, { recursive: true, force: true }); },
  };
}

/** A raw request (no normalisation of the path; Host as given when the headers name it). */
export function rawRequest(port: number, method: string, path: string, headers: Record<string, string> = {}, body?: Buffer): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, setHost: !Object.keys(headers).some((k) => k.toLowerCase() === 'host') }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => { text += d.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}
