// The tests' asynchronous child-process helper (test/helpers/run-process.ts): spawnSync's result shape, input on
// stdin, a timeout that kills (SIGTERM, then SIGKILL for a child that ignores it) and says so, a command that
// does not exist, and an event loop that keeps turning while the child runs.
import { describe, expect, it } from 'vitest';
import { runNode, runProcess } from '../helpers/run-process.js';

describe('runProcess', () => {
  it('gives status, stdout, stderr and pid, and feeds input to stdin', async () => {
    const r = await runNode(['-e', 'process.stdin.pipe(process.stdout); process.stderr.write("err"); process.stdin.on("end", () => process.exit(3))'], { input: 'hello' });
    expect(r).toMatchObject({ status: 3, signal: null, stdout: 'hello', stderr: 'err', timedOut: false });
    expect(r.pid).toBeGreaterThan(0);
    expect(r.error).toBeUndefined();
  });

  it('kills a child past its timeout and says so on stderr, while the event loop keeps turning', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 20);
    const r = await runProcess('sleep', ['30'], { timeout: 300 });
    clearInterval(timer);
    expect(r).toMatchObject({ status: null, signal: 'SIGTERM', timedOut: true });
    expect(r.stderr).toMatch(/\[runProcess\] sleep 30: killed after its 300 ms timeout/);
    expect((r.error as NodeJS.ErrnoException).code).toBe('ETIMEDOUT');
    expect(ticks).toBeGreaterThan(5);
  });

  it('SIGKILLs a child that ignores SIGTERM', async () => {
    const r = await runNode(['-e', 'process.on("SIGTERM", () => {}); console.log("ready"); setInterval(() => {}, 1000)'], { timeout: 500 });
    expect(r).toMatchObject({ status: null, signal: 'SIGKILL', timedOut: true, stdout: 'ready\n' });
  }, 20_000);

  it('a command that does not exist: status null, error ENOENT, pid 0', async () => {
    const r = await runProcess('/nonexistent/command', []);
    expect(r).toMatchObject({ status: null, pid: 0, timedOut: false });
    expect((r.error as NodeJS.ErrnoException).code).toBe('ENOENT');
  });
});
