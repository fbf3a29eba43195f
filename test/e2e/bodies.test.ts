// End to end with a body in the flow, in a real browser against `dsmc serve`: the case editor lists the
// sphere-free-molecular preset's sphere and shows a body placed outside the box as an error on that body;
// the shrunk preset (150 steps) is launched, and the finished run shows the sphere's outline on the field
// heatmap with the cells inside it blank, the surface chart with the per-body loads (Cd near Bird's 3.06),
// and the surface export (.vtp). An STL chosen on the user's computer is uploaded and becomes a body.
// Screenshots go to test-results/e2e/bodies-*.png.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shapeSchema } from '../../src-main/common/body-schema.js';
import { tessellateShape } from '../../src-main/common/geometry/index.js';
import { SHOTS, openBrowserSession, type BrowserSession } from './browser-session.js';

let session: BrowserSession;
let page: Page;
const shot = (name: string) => session.shot(name);
const setField = (path: string, value: string) => session.setField(path, value);
const settledCheck = () => session.settledCheck();

describe('a body in the flow, in a browser against dsmc serve', () => {
  beforeAll(async () => {
    session = await openBrowserSession();
    ({ page } = session);
  }, 120_000);

  afterAll(async () => {
    await session?.close();
  });

  it('lists the preset\'s body in the case editor and names a body outside the box next to it', async () => {
    await session.openEditor('sphere-free-molecular');
    await page.waitForSelector('[data-test="body-row-0"]');
    const row = (await page.locator('[data-test="body-row-0"]').textContent()) ?? '';
    expect(row).toContain('sphere');
    expect(row).toContain('diffuse, 300 K');
    expect(row).toContain('5120'); // 20 x 4^4 triangles of the default icosphere
    expect(await settledCheck()).toContain('ready');
    // the sphere (radius 0.12 m) moved to x = 0.55 m leaves the 0.6 m box through the inflow face xmax
    await setField('bodies[0].shape.center[0]', '0.55');
    expect(await settledCheck()).toContain('fix the errors');
    // a case issue at the body's path, shown on its row
    await expect.poll(() => page.locator('[data-test="body-messages-0"]').textContent()).toMatch(/body "sphere" (leaves the box|crosses the inflow face xmax)/);
    expect(await page.locator('[data-test="to-launch"]').isDisabled()).toBe(true);
    await shot('bodies-1-editor-error');
    await setField('bodies[0].shape.center[0]', '0.3');
    expect(await settledCheck()).toContain('ready');
  });

  it('adds a body from an STL file chosen on the user\'s computer (uploaded to the server), and shows a refused upload', async () => {
    // a 0.1 m cube as ASCII STL, inside the sphere preset's 0.6 m box away from the sphere
    const tris = tessellateShape(shapeSchema.parse({ type: 'box', min: [0.05, 0.05, 0.05], max: [0.15, 0.15, 0.15] }), [1, 1, 1]);
    const facets = Array.from({ length: tris.length / 9 }, (_, t) => `facet normal 0 0 0\nouter loop\n${[0, 1, 2].map((v) => `vertex ${tris[9 * t + 3 * v]} ${tris[9 * t + 3 * v + 1]} ${tris[9 * t + 3 * v + 2]}`).join('\n')}\nendloop\nendfacet`);
    const cube = Buffer.from(['solid c', ...facets, 'endsolid c'].join('\n'));
    await page.setInputFiles('[data-test="upload-stl"]', { name: 'my cube.stl', mimeType: 'model/stl', buffer: cube });
    await page.waitForSelector('[data-test="body-row-1"]');
    const row = (await page.locator('[data-test="body-row-1"]').textContent()) ?? '';
    expect(row).toContain('my-cube');
    expect(row).toMatch(/stl/);
    // the body names the stored file (in the server's data folder), which the server reads: the check passes
    expect(await page.locator('[data-test="json-view"]').inputValue()).toMatch(/"file": ".*meshes[\\/]my-cube\.stl"/);
    expect(await settledCheck()).toContain('ready');
    // bytes that are no STL are refused with the reason, and nothing is added
    await page.setInputFiles('[data-test="upload-stl"]', { name: 'notes.stl', mimeType: 'model/stl', buffer: Buffer.from('hello, not a mesh') });
    await expect.poll(() => page.locator('[data-test="upload-error"]').textContent()).toMatch(/^notes\.stl: .+/);
    expect(await page.locator('[data-test="body-row-2"]').count()).toBe(0);
    await shot('bodies-2-uploaded-stl');
    await page.click('[data-test="remove-body-1"]');
    expect(await settledCheck()).toContain('ready');
  });

  let runId = 0;
  it('launches the shrunk sphere preset and follows it to the end', async () => {
    await setField('run.steps', '150');
    await setField('sampling.start', '20');
    expect(await settledCheck()).toContain('ready');
    expect(await page.locator('[data-test="json-view"]').inputValue()).toMatch(/"steps": 150/);
    await page.click('[data-test="to-launch"]');
    await page.fill('[data-test="launch-project"]', 'bodies');
    await page.click('[data-test="launch"]');
    await page.waitForURL(/#\/runs\/\d+\/live$/, { timeout: 120_000 });
    runId = Number(/runs\/(\d+)\/live/.exec(page.url())![1]);
    await page.waitForFunction(() => /completed|failed|cancelled/.test(document.querySelector('[data-test="live-status"]')?.textContent ?? ''), undefined, { timeout: 120_000 });
    const reason = (await page.locator('.reason').allTextContents()).join(' ');
    expect((await page.locator('[data-test="live-status"]').textContent())?.trim(), `run ended: ${reason}`).toBe('completed');
    // the final slice of the live view carries the outline too
    await page.waitForSelector('[data-test="live-heatmap"] [data-test="heatmap"] svg');
    expect(Number(await page.locator('[data-test="live-heatmap"] [data-test="heatmap"]').getAttribute('data-outline-segments'))).toBeGreaterThan(20);
  });

  it('shows the sphere on the heatmap, the surface chart with Cd, and exports the surface', async () => {
    await page.click('[data-test="open-detail"]');
    await page.waitForSelector('.detail [data-test="heatmap"] svg');
    const map = page.locator('.detail [data-test="heatmap"]');
    // the middle z plane cuts the sphere: a closed outline of many segments, drawn as white lines over the map
    expect(Number(await map.getAttribute('data-outline-segments'))).toBeGreaterThan(20);
    expect(await map.locator('svg path[stroke="#fff"], svg path[stroke="#ffffff"]').count()).toBeGreaterThan(20);
    // cells wholly inside the sphere are left without a value
    expect(Number(await map.getAttribute('data-body-cells'))).toBeGreaterThan(0);
    expect(await page.locator('[data-test="body-note"]').textContent()).toMatch(/\d+ cells inside them .* are left blank/);

    await page.waitForSelector('[data-test="surface-chart"] svg');
    expect(await page.locator('[data-test="surface-chart"]').textContent()).toContain('pressure coefficient Cp on sphere');
    expect(await page.locator('[data-test="surface-coordinate"]').inputValue()).toBe('angle');
    // Bird's closed form for a diffuse sphere at speed ratio 2: Cd = 3.06 (150 steps: within ~10 %)
    const cd = Number(await page.locator('[data-test="body-cd-0"]').textContent());
    expect(cd).toBeGreaterThan(2.7);
    expect(cd).toBeLessThan(3.4);
    expect(await page.locator('[data-test="body-loads"] thead').textContent()).toContain('heat transfer (W)');
    await page.selectOption('[data-test="surface-quantity"]', 'heatFlux');
    await expect.poll(() => page.locator('[data-test="surface-chart"]').textContent()).toContain('heat flux into the wall on sphere');
    await shot('bodies-2-run-detail');

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-test="export-vtp"]')]);
    expect(download.suggestedFilename()).toBe(`run-${runId}-surface.vtp`);
    const saved = join(SHOTS, download.suggestedFilename());
    await download.saveAs(saved);
    const vtp = readFileSync(saved, 'utf8');
    expect(vtp).toContain('<PolyData>');
    expect(vtp).toContain('NumberOfPolys="5120"');
    expect(session.pageErrors).toEqual([]);
  });
});
