// PDF export through headless Debian chromium (playwright-core). Not skipped when chromium is missing:
// the test fails and says how to install it.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProfileReport } from '../../src-main/common/reports/profile-model.js';
import { exportProfile } from '../../src-main/reports/export-profile.js';
import { chromiumPath, DEFAULT_CHROMIUM } from '../../src-main/reports/html-to-pdf.js';
import { sampleInput } from './fixtures.js';

describe('PDF profile', () => {
  it('prints the HTML report to a PDF file', async () => {
    if (!existsSync(process.env.DSMC_CHROMIUM || DEFAULT_CHROMIUM)) {
      throw new Error(`PDF export needs Chromium at ${DEFAULT_CHROMIUM}: apt-get install chromium (or set DSMC_CHROMIUM)`);
    }
    const dir = mkdtempSync(join(tmpdir(), 'dsmc-pdf-'));
    const out = join(dir, 'report.pdf');
    await exportProfile(buildProfileReport(sampleInput()), 'pdf', out);
    const bytes = readFileSync(out);
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('%PDF');
    expect(bytes.length).toBeGreaterThan(5000);
    expect(readdirSync(dir)).toEqual(['report.pdf']);
    rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it('names apt-get install chromium when the browser is missing', () => {
    expect(() => chromiumPath({ DSMC_CHROMIUM: '/nonexistent/chromium' })).toThrow(/apt-get install chromium/);
  });
});
