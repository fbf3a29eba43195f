// Writes a profiling report in one of the export formats, chosen from a table of writers. With the run's figures
// (field maps, surface distributions: report-figures.ts) the HTML and PDF draw them and the CSV tables include them.
import type { ProfileReport } from '../common/reports/profile-model.js';
import { htmlToPdf } from './html-to-pdf.js';
import { profileCsv, profileCsvZip } from './profile-csv.js';
import { profileHtml } from './profile-html.js';
import type { OutputGuard } from './output-target.js';
import type { ReportFigures } from './report-figures.js';
import { writeFileAtomic } from './write-atomic.js';

type Figures = ReportFigures | null;

/** Writers of a report to a file, by format (zip: one CSV file per table). */
const PROFILE_WRITERS = {
  html: (r: ProfileReport, out: string, g: OutputGuard, f: Figures) => writeFileAtomic(out, profileHtml(r, undefined, f), g),
  csv: (r: ProfileReport, out: string, g: OutputGuard, f: Figures) => writeFileAtomic(out, profileCsv(r, f), g),
  json: (r: ProfileReport, out: string, g: OutputGuard) => writeFileAtomic(out, JSON.stringify(r, null, 2) + '\n', g),
  pdf: (r: ProfileReport, out: string, g: OutputGuard, f: Figures) => htmlToPdf(profileHtml(r, undefined, f), out, g),
  zip: (r: ProfileReport, out: string, g: OutputGuard, f: Figures) => writeFileAtomic(out, profileCsvZip(r, f), g),
} as const;

export type ProfileFormat = keyof typeof PROFILE_WRITERS;
export const PROFILE_FORMATS = Object.keys(PROFILE_WRITERS) as ProfileFormat[];

/** The format named by --format, or an error listing the formats. */
export function profileFormatOf(text: unknown): ProfileFormat {
  if (typeof text === 'string' && (PROFILE_FORMATS as string[]).includes(text)) return text as ProfileFormat;
  throw new Error(`--format: got "${String(text)}"; expected one of ${PROFILE_FORMATS.join(', ')} (zip: one CSV file per table)`);
}

/** Writes the report (with the run's figures when given) to `out` in `format` (through a temporary file). */
export async function exportProfile(report: ProfileReport, format: ProfileFormat, out: string, guard: OutputGuard = {}, figures: Figures = null): Promise<void> {
  await PROFILE_WRITERS[format](report, out, guard, figures);
}
