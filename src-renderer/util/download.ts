// Browser mode's "save": turns an exported file (base64) into a download of that name.
import type { ExportedFile } from '../../src-main/common/contract/types.js';

/** Starts a download of the file (no-op when the host already saved it, e.g. Electron's save dialog). */
export function downloadExport(file: ExportedFile): void {
  if (file.savedPath) return;
  const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type: file.mimeType }));
  const a = document.createElement('a');
  a.href = url;
  a.download = file.fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
