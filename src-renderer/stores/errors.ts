// Turns anything thrown by a contract call into the message shown to the user.

/** The message of an error (the services' messages already say what to fix). */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
