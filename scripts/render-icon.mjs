// Renders resources/icons/icon.svg to icon.png (1024 x 1024) with headless Chromium (playwright-core), for
// electron-builder, which makes the .ico and .icns from that PNG. Run: node scripts/render-icon.mjs
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const dir = new URL('../resources/icons/', import.meta.url);
const svg = readFileSync(new URL('icon.svg', dir), 'utf8');
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const page = await browser.newPage({ viewport: { width: 1024, height: 1024 } });
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg.replace('<svg', '<svg width="1024" height="1024"')}</body></html>`);
  // written to a temp name and renamed (the type comes from the option, not the .tmp name)
  const png = await page.screenshot({ type: 'png', omitBackground: true, clip: { x: 0, y: 0, width: 1024, height: 1024 } });
  const out = new URL('icon.png.tmp', dir);
  writeFileSync(out, png);
  renameSync(out, new URL('icon.png', dir));
  console.log('wrote resources/icons/icon.png (1024 x 1024)');
} finally {
  await browser.close();
}
