// Writes a profiling report in one of the export formats, chosen from a table of writers.
import type { ProfileReport } from '../common/reports/profile-model.js';
import { htmlToPdf } from './html-to-pdf.js';
import { profileCsv } from './profile-csv.js';
import { profileHtml } from './profile-html.js';
import type { OutputGuard } from './output-target.js';
import { writeFileAtomic } from './write-atomic.js';

/** Writers of a report to a file, by format. */
const PROFILE_WRITERS = {
  html: (r: ProfileReport, out: string, g: OutputGuard) => writeFileAtomic(out, profileHtml(r), g),
  csv: (r: ProfileReport, out: string, g: OutputGuard) => writeFileAtomic(out, profileCsv(r), g),
  json: (r: ProfileReport, out: string, g: OutputGuard) => writeFileAtomic(out, JSON.stringify(r, null, 2) + '\n', g),
  pdf: (r: ProfileReport, out: string, g: OutputGuard) => htmlToPdf(profileHtml(r), out, g),
} as const;

export type ProfileFormat = keyof typeof PROFILE_WRITERS;
export const PROFILE_FORMATS = Object.keys(PROFILE_WRITERS) as ProfileFormat[];

/** The format named by --format, or an error listing the formats. */
export function profileFormatOf(text: unknown): ProfileFormat {
  if (typeof text === 'string' && (PROFILE_FORMATS as string[]).includes(text)) return text as ProfileFormat;
  throw new Error(`--format: got "${String(text)}"; expected one of ${PROFILE_FORMATS.join(', ')}`);
}

/** Writes the report to `out` in `format` (through a temporary file). */
export async function exportProfile(report: ProfileReport, format: ProfileFormat, out: string, guard: OutputGuard = {}): Promise<void> {
  await PROFILE_WRITERS[format](report, out, guard);
}
