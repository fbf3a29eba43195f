// A run's exports as files in memory (profile report as HTML, CSV, JSON or PDF; fields as VTK), written
// through the same writers as `dsmc report` / `dsmc export` into a temporary folder and read back.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExportFormat } from '../common/contract/contract.js';
import type { ExportedFile } from '../common/contract/types.js';
import { buildProfileReport } from '../common/reports/profile-model.js';
import { loadProfileInput, type RunSource } from '../reports/run-source.js';
import { runFieldsVti, runSurfaceVtp } from '../reports/vtk-export.js';
import { writeFileAtomic } from '../reports/write-atomic.js';

/** File extension and MIME type of each format. */
const FILE_TYPES: Record<ExportFormat, { ext: string; mime: string }> = {
  html: { ext: 'html', mime: 'text/html' },
  csv: { ext: 'csv', mime: 'text/csv' },
  json: { ext: 'json', mime: 'application/json' },
  pdf: { ext: 'pdf', mime: 'application/pdf' },
  vtk: { ext: 'vti', mime: 'application/xml' },
  vtp: { ext: 'vtp', mime: 'application/xml' },
};

/** Writes one export of a run to `out`. */
async function writeExport(source: RunSource, runId: number, format: ExportFormat, out: string): Promise<void> {
  if (format === 'vtk' || format === 'vtp') {
    await writeFileAtomic(out, format === 'vtk' ? runFieldsVti(source, runId) : runSurfaceVtp(source, runId));
    return;
  }
  // loaded on demand: ECharts (server-side SVG charts) takes ~0.6 s to load
  const { exportProfile } = await import('../reports/export-profile.js');
  await exportProfile(buildProfileReport(loadProfileInput(source, runId)), format, out);
}

/** The file name an export of a run gets, e.g. run-12-profile.html or run-12-fields.vti. */
export function exportFileName(runId: number, format: ExportFormat): string {
  const what = format === 'vtk' ? 'fields' : format === 'vtp' ? 'surface' : 'profile';
  return `run-${runId}-${what}.${FILE_TYPES[format].ext}`;
}

/** Makes one export of a run and returns it as base64 (for a download or a save dialog). */
export async function exportRunFile(source: RunSource, runId: number, format: ExportFormat): Promise<ExportedFile> {
  const dir = mkdtempSync(join(tmpdir(), 'dsmc-export-'));
  try {
    const fileName = exportFileName(runId, format);
    const path = join(dir, fileName);
    await writeExport(source, runId, format, path);
    return { fileName, mimeType: FILE_TYPES[format].mime, base64: readFileSync(path).toString('base64'), savedPath: null };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Saves an export's bytes where the user chose (the desktop app's save dialog), through the shared output checks and a temporary file. */
export async function saveExportFile(path: string, bytes: Uint8Array, dataDirs: string[] = []): Promise<void> {
  await writeFileAtomic(path, bytes, { dataDirs, label: 'the chosen file' });
}
