// One export from a store (a run's report, a study's report): the format being exported while it runs, what came of
// it ("saved PATH" in the desktop app, "downloaded NAME" in a browser), or the error.
import type { Ref } from 'vue';
import type { ExportedFile } from '../../src-main/common/contract/types.js';
import { errorText } from './errors.js';

/** A store's export state. */
export interface ExportState<F> {
  exporting: Ref<F | null>;
  lastExport: Ref<string | null>;
  error: Ref<string | null>;
}

/** Runs `call` for `format`, keeping the store's export state; resolves to the file, or null with the error set. */
export async function exportWith<F>(state: ExportState<F>, format: F, call: () => Promise<ExportedFile>): Promise<ExportedFile | null> {
  state.exporting.value = format;
  state.error.value = null;
  try {
    const f = await call();
    state.lastExport.value = f.savedPath ? `saved ${f.savedPath}` : `downloaded ${f.fileName}`;
    return f;
  } catch (e) {
    state.error.value = errorText(e);
    return null;
  } finally {
    state.exporting.value = null;
  }
}
