// A rank's solver tables, built as soon as the orchestrator's `prepare` brings the case (while the orchestrator builds
// its own and decides the split: meshing and cutting a case's bodies takes seconds), or from `configure` when no
// `prepare` came or it brought another case.
import type { RankChannel } from '../cluster/transport/rank-channel.js';
import { parseCase, type Case } from '../common/case-schema.js';
import { buildTables, type SolverTables } from './tables.js';

export class RankTables {
  /** The tables `prepare` built, with the case's JSON text they were built from. */
  private early: { text: string; tables: SolverTables } | null = null;
  private readonly stopListening: () => void;
  /** Seconds `prepare` spent building (0 until it came). */
  buildSeconds = 0;

  /** Listens for `prepare` on `ch` (a case the tables refuse fails the rank's wait for `configure` with that error). */
  constructor(ch: Pick<RankChannel, 'on'>) {
    this.stopListening = ch.on('prepare', (m) => {
      const t0 = performance.now();
      try {
        this.early = { text: JSON.stringify(m.message.case), tables: buildTables(parseCase(m.message.case)) };
      } finally {
        this.buildSeconds += (performance.now() - t0) / 1000;
      }
    });
  }

  /** The tables of the configured case `c` (`json`: as it arrived): those `prepare` built when it brought the same case, else built now. */
  forCase(json: unknown, c: Case): SolverTables {
    this.stopListening();
    const early = this.early;
    this.early = null;
    return early !== null && early.text === JSON.stringify(json) ? early.tables : buildTables(c);
  }

  /** The tables `prepare` built that forCase has not taken yet, or null (tests). */
  get prepared(): SolverTables | null {
    return this.early?.tables ?? null;
  }
}
