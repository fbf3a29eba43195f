// Writes a scaling report in one of the export formats (a table of writers), through a temporary file.
import type { ScalingReport } from '../common/reports/scaling-model.js';
import { htmlToPdf } from './html-to-pdf.js';
import { scalingCsv, scalingCsvZip } from './scaling-csv.js';
import { scalingHtml } from './scaling-html.js';
import type { OutputGuard } from './output-target.js';
import { writeFileAtomic } from './write-atomic.js';

/** Writers of a scaling report to a file, by format (zip: one CSV file per table). */
const SCALING_WRITERS = {
  html: (r: ScalingReport, out: string, g: OutputGuard) => writeFileAtomic(out, scalingHtml(r), g),
  csv: (r: ScalingReport, out: string, g: OutputGuard) => writeFileAtomic(out, scalingCsv(r), g),
  json: (r: ScalingReport, out: string, g: OutputGuard) => writeFileAtomic(out, JSON.stringify(r, null, 2) + '\n', g),
  pdf: (r: ScalingReport, out: string, g: OutputGuard) => htmlToPdf(scalingHtml(r), out, g),
  zip: (r: ScalingReport, out: string, g: OutputGuard) => writeFileAtomic(out, scalingCsvZip(r), g),
} as const;

export type ScalingFormat = keyof typeof SCALING_WRITERS;
export const SCALING_FORMATS = Object.keys(SCALING_WRITERS) as ScalingFormat[];

/** The format named by --format, or an error listing the formats. */
export function scalingFormatOf(text: unknown): ScalingFormat {
  if (typeof text === 'string' && (SCALING_FORMATS as string[]).includes(text)) return text as ScalingFormat;
  throw new Error(`--format: got "${String(text)}"; expected one of ${SCALING_FORMATS.join(', ')} (zip: one CSV file per table)`);
}

/** The file a scaling report goes to without --out: study-ID-scaling.FORMAT in the current folder (study-ID-scaling-csv.zip for zip). */
export function defaultScalingOut(studyId: number, format: ScalingFormat): string {
  return format === 'zip' ? `study-${studyId}-scaling-csv.zip` : `study-${studyId}-scaling.${format}`;
}

/** Writes the report to `out` in `format` (through a temporary file). */
export async function exportScaling(report: ScalingReport, format: ScalingFormat, out: string, guard: OutputGuard = {}): Promise<void> {
  await SCALING_WRITERS[format](report, out, guard);
}
