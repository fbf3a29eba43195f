// Live fields of `dsmc run --ranks` started by the app: when the process has an IPC channel to its parent and
// DSMC_LIVE_FIELDS=1, it posts a slice of the assembled fields (at most twice a second, as a one-rank run child
// does) and follows the parent's choice of field and plane ('view' messages).
import type { Case } from '../common/case-schema.js';
import type { FromChild, LiveView, ToChild } from '../services/child-messages.js';
import { LiveFields } from '../services/live-fields.js';
import type { LiveFieldSource } from '../solver/loop-types.js';

/** The onFields hook of a multi-rank run that posts live slices to the parent; undefined when nobody listens. */
export function liveFieldsOverIpc(c: Case): ((fields: LiveFieldSource) => Promise<void>) | undefined {
  if (!process.send || process.env.DSMC_LIVE_FIELDS !== '1' || !c.sampling.enabled) return undefined;
  let view: LiveView = { field: 'n', axis: 'z' };
  let live: LiveFields | null = null;
  process.on('message', (m: ToChild) => {
    if (m?.type !== 'view') return;
    view = m.view;
    live?.setView(m.view);
  });
  // the channel must not keep `dsmc run` alive once the run is over
  process.channel?.unref();
  const post = (slice: FromChild & { type: 'field' }) => { if (process.connected) process.send!(slice); };
  return async (fields) => {
    live ??= new LiveFields(c, view, (slice) => post({ type: 'field', slice }), 500, fields);
    await live.tick();
  };
}
