// Report tables as CSV: one text with every table as a section ("# name", header, rows; sections separated by
// one empty line), or a .zip holding one plain CSV file per table (header row first), which pandas
// (pd.read_csv) and spreadsheets open as they are.
import { strToU8, zipSync } from 'fflate';
import { csvRow } from './csv.js';

/** One cell of a table. */
export type CsvCellValue = string | number | boolean | null | undefined;

/** One table of a report: its file name without .csv, the header row and the data rows. */
export interface CsvTable {
  name: string;
  header: string[];
  rows: CsvCellValue[][];
}

/** Table names that are safe file names inside a zip (letters, digits, _ and -). */
const TABLE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/** Fixed modification time of the zip entries, so the same report gives the same bytes. */
const ZIP_MTIME = new Date(Date.UTC(2020, 0, 1));

/** One table as plain CSV text: header row, data rows, a final newline. */
export function tableCsv(t: CsvTable): string {
  return [csvRow(t.header), ...t.rows.map(csvRow)].join('\n') + '\n';
}

/** Every table as one text of "# name" sections separated by one empty line. */
export function csvSections(tables: CsvTable[]): string {
  return tables.map((t) => [`# ${t.name}`, csvRow(t.header), ...t.rows.map(csvRow)].join('\n')).join('\n\n') + '\n';
}

/** The tables as a .zip of NAME.csv files (UTF-8, deflated), in the order given; names must be unique and plain. */
export function csvZip(tables: CsvTable[]): Uint8Array {
  const files: Record<string, [Uint8Array, { mtime: Date }]> = {};
  for (const t of tables) {
    if (!TABLE_NAME.test(t.name)) throw new Error(`report table name "${t.name}": use letters, digits, _ and - only (it becomes a file name in the zip)`);
    const file = `${t.name}.csv`;
    if (Object.hasOwn(files, file)) throw new Error(`report table "${t.name}" appears twice; every table needs its own name in the zip`);
    files[file] = [strToU8(tableCsv(t)), { mtime: ZIP_MTIME }];
  }
  return zipSync(files, { level: 6 });
}
