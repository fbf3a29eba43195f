// End to end, issue 27 item 4: the live page of a run launched from the app stays responsive. A collide-box run
// with small submits (many live events a second) is launched from the editor; while it runs, the time of
// `page.evaluate(() => 1)` round trips is measured (and the server's answer to a fetch of the page); then the same case runs from the CLI (`dsmc run`) with its
// live page open, as the control the issue compares with. The bound asserted is generous (1 s for the worst round
// trip of the app's run, the issue saw up to 8 s; the median under 200 ms): the machine that runs the suite is
// shared and slow, and a tight wall-clock bound would flake. Measured numbers: docs/live-view.md.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunStore } from '../../src-main/store/run-store.js';
import { ROOT, openBrowserSession, type BrowserSession } from './browser-session.js';

let session: BrowserSession;
let page: Page;

/** Steps of the runs: far more than the test watches (each is stopped after its measurement). */
const STEPS = 20000;

/** Round trips of a trivial script for `ms` milliseconds (one after another, 50 ms apart), in ms. */
async function roundTrips(p: Page, ms: number): Promise<number[]> {
  const out: number[] = [];
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const t0 = performance.now();
    await p.evaluate(() => 1);
    out.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 50));
  }
  return out;
}

/** Ids of the runs the data folder lists as running (read in this process: what `dsmc runs --status running` lists). */
function runningIds(dataDir: string): number[] {
  const store = RunStore.open({ dataDir });
  try {
    return store.listRuns({ status: 'running' }).map((r) => r.id);
  } finally {
    store.close();
  }
}

/** The q-quantile of a list of numbers. */
function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

/** Waits until the live page shows step 1000 or later, measures round trips for 10 s and prints them; returns them. */
async function measureLivePage(label: string): Promise<{ median: number; p95: number; worst: number }> {
  await page.waitForFunction(() => Number(/step (\d+)/.exec(document.querySelector('[data-test="live-step"]')?.textContent ?? '')?.[1] ?? 0) >= 1000, undefined, { timeout: 120_000 });
  const times = await roundTrips(page, 10_000);
  const step = (await page.locator('[data-test="live-step"]').textContent()) ?? '';
  expect((await page.locator('[data-test="live-status"]').textContent())?.trim()).toBe('running');
  const r = { median: quantile(times, 0.5), p95: quantile(times, 0.95), worst: Math.max(...times) };
  process.stdout.write(`${label}: ${times.length} round trips up to ${step}: median ${r.median.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms, max ${r.worst.toFixed(1)} ms\n`);
  // the serve process too: the page fetches its own URL from the server 20 times (the server's event loop answers)
  const server = await page.evaluate(async () => {
    const out: number[] = [];
    for (let k = 0; k < 20; k++) {
      const t0 = performance.now();
      await (await fetch(location.href, { cache: 'no-store' })).text();
      out.push(performance.now() - t0);
    }
    return out;
  });
  process.stdout.write(`${label}: the server answered the page's fetch in median ${quantile(server, 0.5).toFixed(1)} ms, max ${Math.max(...server).toFixed(1)} ms\n`);
  expect(quantile(server, 0.5)).toBeLessThan(200);
  return r;
}

describe('the live page of a run launched from the app', () => {
  beforeAll(async () => {
    session = await openBrowserSession();
    page = session.page;
  }, 120_000);

  afterAll(async () => {
    await session?.close();
  });

  it('answers a trivial script quickly while the run goes', async () => {
    await session.openEditor('collide-box');
    await page.click('[data-test="reset-preset"]');
    for (const i of [0, 1, 2]) await session.setField(`grid.cells[${i}]`, '8');
    await session.setField('run.steps', String(STEPS));
    await session.setField('run.stepsPerSubmit', '5');
    expect(await session.settledCheck()).toContain('ready');
    await page.click('[data-test="to-launch"]');
    await page.fill('[data-test="launch-project"]', 'live');
    await page.click('[data-test="launch"]');
    await page.waitForURL(/#\/runs\/\d+\/live$/, { timeout: 120_000 });
    const r = await measureLivePage('run launched from the app');
    await session.shot('live-responsive');
    expect(r.median).toBeLessThan(200);
    expect(r.worst).toBeLessThan(1000);
    await page.click('[data-test="stop-keep"]');
    await page.waitForFunction(() => !/running/.test(document.querySelector('[data-test="live-status"]')?.textContent ?? ''), undefined, { timeout: 60_000 });
    expect(session.pageErrors).toEqual([]);
  }, 300_000);

  it('measures the same case run from the CLI with its live page open (the control)', async () => {
    const c = JSON.parse(readFileSync(join(ROOT, 'resources', 'cases', 'collide-box.json'), 'utf8'));
    c.grid.cells = [8, 8, 8];
    c.run.steps = STEPS;
    c.run.stepsPerSubmit = 5;
    const file = join(session.serve.dataDir, 'cli-case.json');
    writeFileSync(file, JSON.stringify(c));
    const cli = spawn(process.execPath, [join(ROOT, 'bin', 'dsmc.js'), 'run', file, '--project', 'live', '--no-progress', '--data-dir', session.serve.dataDir], { stdio: 'ignore' });
    const exited = new Promise((r) => cli.once('exit', r));
    try {
      // the app's run was run 1: the CLI's is run 2 of this fresh data folder, opened once it is recorded
      await expect.poll(() => runningIds(session.serve.dataDir), { timeout: 120_000, interval: 100 }).toEqual([2]);
      await page.goto(`${session.serve.url}#/runs/2/live`);
      await page.reload();
      await measureLivePage('run from the CLI (control)');
    } finally {
      cli.kill('SIGINT');
      await exited;
    }
  }, 300_000);
});
