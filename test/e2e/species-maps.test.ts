// End to end, issue 28, in a real browser against `dsmc serve`: a run of an Ar + He gas (made with the CLI) shows
// its per-species fields in the run detail's field picker with their labels, draws the mole fraction of helium with
// its unit, and shows the gas's composition (mean mole fractions, particles per species) as the summary holds it;
// the compare view of two seeds offers the species fields and draws x_He's difference map.
// Screenshots: test-results/e2e/species-maps-*.png.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowserSession, type BrowserSession } from './browser-session.js';
import { dsmc } from './cli-runs.js';

let session: BrowserSession;
let page: Page;
let runId = 0;
let second = 0;
let summary: { composition: { moleFractions: number[]; overTime: { step: number; speciesCounts: number[] }[] } };
const MAP = '.detail [data-test="heatmap"]';

describe('per-species fields and composition in the run detail, in a browser against dsmc serve', () => {
  beforeAll(async () => {
    session = await openBrowserSession();
    page = session.page;
    const sets = ['species=[{"use":"Ar"},{"use":"He"}]', 'initial.fractions={"Ar":0.75,"He":0.25}', 'grid.cells=[6,6,1]', 'particles.perCell=60',
      'run.steps=60', 'sampling.start=10'];
    const run = async (seed: number) => {
      const out = await dsmc(session.serve.dataDir, ['run', 'collide-box', '--project', 'species', '--json', '--no-progress', ...[...sets, `run.seed=${seed}`].flatMap((s) => ['--set', s])]);
      return JSON.parse(out.trim().split('\n').pop()!);
    };
    summary = await run(1);
    runId = (summary as unknown as { runId: number }).runId;
    second = (await run(2)).runId;
  }, 240_000);

  afterAll(async () => {
    await session?.close();
  });

  it('offers n_<s> and x_<s> with their labels and draws x_He in its unit', async () => {
    await page.goto(`${session.serve.url}#/runs/${runId}`);
    await page.waitForSelector(`${MAP} svg`);
    const options = await page.locator('[data-test="slice-field"] option').allTextContents();
    expect(options).toEqual(expect.arrayContaining(['n_Ar (number density of Ar)', 'n_He (number density of He)', 'x_Ar (mole fraction of Ar)', 'x_He (mole fraction of He)']));
    await page.selectOption('[data-test="slice-field"]', 'x_He');
    await expect.poll(() => page.locator(MAP).textContent()).toContain('mole fraction of He [1]');
    await session.shot('species-maps-1');
    expect(session.pageErrors).toEqual([]);
  });

  it('shows the composition as the run summary holds it', async () => {
    const row = (name: string) => page.locator(`[data-test="composition-${name}"] td`).allTextContents();
    const c = summary.composition;
    const end = c.overTime.at(-1)!;
    expect(await row('Ar')).toEqual(['Ar', c.moleFractions[0].toFixed(5), String(c.overTime[0].speciesCounts[0]), String(end.speciesCounts[0])]);
    expect(await row('He')).toEqual(['He', c.moleFractions[1].toFixed(5), String(c.overTime[0].speciesCounts[1]), String(end.speciesCounts[1])]);
    expect(await page.locator('[data-test="composition"] svg').count()).toBe(1);
  });

  it('compares two seeds on a species field: the picker offers it, the difference map is drawn in z', async () => {
    await page.goto(`${session.serve.url}#/compare`);
    for (const id of [runId, second]) await page.check(`[data-test="pick-${id}"]`);
    await page.click('[data-test="compare"]');
    const sel = '.compare [data-test="heatmap"]';
    await page.waitForSelector(`${sel} svg`);
    const options = await page.locator('.compare [data-test="slice-field"] option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(options).toEqual(expect.arrayContaining(['n_Ar', 'n_He', 'x_Ar', 'x_He']));
    await page.selectOption('.compare [data-test="slice-field"]', 'x_He');
    await expect.poll(() => page.locator(sel).textContent()).toContain('mole fraction of He: difference / standard error');
    await session.shot('species-maps-2-compare');
    expect(session.pageErrors).toEqual([]);
  });
});
