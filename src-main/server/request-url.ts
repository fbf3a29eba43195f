// Request URLs as browser mode reads them: parsed against a fixed base, or null when they cannot be parsed
// (`///?x`, which new URL refuses and which once ended the whole server).

/** The request target as a URL, or null when it is not a valid one. */
export function requestUrl(target: string | undefined): URL | null {
  try {
    return new URL(target ?? '/', 'http://localhost');
  } catch {
    return null;
  }
}
