// A run's exports as files in memory (profile report as HTML, CSV, zipped CSV tables, JSON or PDF, with the run's
// field maps and surface distributions; fields as VTK) and a scaling study's report, written through the same
// writers as `dsmc report` / `dsmc export` into a temporary folder and read back.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExportFormat, StudyExportFormat } from '../common/contract/contract.js';
import type { ExportedFile } from '../common/contract/types.js';
import { buildProfileReport } from '../common/reports/profile-model.js';
import { buildScalingReport } from '../common/reports/scaling-model.js';
import { loadProfileInput, type RunSource } from '../reports/run-source.js';
import { loadScalingInput, type StudySource } from '../reports/scaling-source.js';
import { runFieldsVti, runSurfaceVtp } from '../reports/vtk-export.js';
import { writeFileAtomic } from '../reports/write-atomic.js';

/** File extension and MIME type of each format. */
const FILE_TYPES: Record<ExportFormat, { ext: string; mime: string }> = {
  html: { ext: 'html', mime: 'text/html' },
  csv: { ext: 'csv', mime: 'text/csv' },
  zip: { ext: 'zip', mime: 'application/zip' },
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
  const { loadReportFigures } = await import('../reports/report-figures.js');
  await exportProfile(buildProfileReport(loadProfileInput(source, runId)), format, out, {}, format === 'json' ? null : loadReportFigures(source, runId));
}

/** The file name an export of a run gets, e.g. run-12-profile.html, run-12-profile-csv.zip or run-12-fields.vti. */
export function exportFileName(runId: number, format: ExportFormat): string {
  const what = format === 'vtk' ? 'fields' : format === 'vtp' ? 'surface' : format === 'zip' ? 'profile-csv' : 'profile';
  return `run-${runId}-${what}.${FILE_TYPES[format].ext}`;
}

/** Writes an export to a file in a temporary folder and returns its bytes as base64 (the folder is removed). */
async function exportedFile(fileName: string, format: keyof typeof FILE_TYPES, write: (path: string) => Promise<void>): Promise<ExportedFile> {
  const dir = mkdtempSync(join(tmpdir(), 'dsmc-export-'));
  try {
    const path = join(dir, fileName);
    await write(path);
    return { fileName, mimeType: FILE_TYPES[format].mime, base64: readFileSync(path).toString('base64'), savedPath: null };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Makes one export of a scaling study's report (study-3-scaling.html, study-3-scaling-csv.zip, ...) and returns it as base64. */
export async function exportStudyFile(source: StudySource, studyId: number, format: StudyExportFormat): Promise<ExportedFile> {
  const { defaultScalingOut, exportScaling } = await import('../reports/scaling-export.js');
  const report = buildScalingReport(loadScalingInput(source, studyId));
  return exportedFile(defaultScalingOut(studyId, format), format, (path) => exportScaling(report, format, path));
}

/** Makes one export of a run and returns it as base64 (for a download or a save dialog). */
export async function exportRunFile(source: RunSource, runId: number, format: ExportFormat): Promise<ExportedFile> {
  return exportedFile(exportFileName(runId, format), format, (path) => writeExport(source, runId, format, path));
}

/** Saves an export's bytes where the user chose (the desktop app's save dialog), through the shared output checks and a temporary file. */
export async function saveExportFile(path: string, bytes: Uint8Array, dataDirs: string[] = []): Promise<void> {
  await writeFileAtomic(path, bytes, { dataDirs, label: 'the chosen file' });
}
