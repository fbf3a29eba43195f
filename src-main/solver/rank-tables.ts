// A rank's solver tables, built as soon as the orchestrator's `prepare` brings the case (while the orchestrator builds
// its own and decides the split: meshing and cutting a case's bodies takes seconds), or from `configure` when no
// `prepare` came or it brought another case. The bodies' cell table is built on threads, the host's cores shared by the
// processes building tables at once (cell-table-threads.ts).
import type { RankChannel } from '../cluster/transport/rank-channel.js';
import { parseCase, type Case } from '../common/case-schema.js';
import { buildTablesOnThreads, type SolverTables } from './tables.js';

export class RankTables {
  /** The tables `prepare` is building (or built), with the case's JSON text they are built from. */
  private early: { text: string; tables: Promise<SolverTables> } | null = null;
  private readonly stopListening: () => void;
  /** Seconds the build took (prepare's, or forCase's own), once it is done. */
  buildSeconds = 0;
  /** When the build ended (performance.now()), null before. */
  builtAt: number | null = null;

  /**
   * Listens for `prepare` on `ch` (a case that does not parse fails the rank's wait for `configure` with that error; one
   * the tables refuse fails forCase). `processes`: the processes of this host that build tables at once.
   */
  constructor(ch: Pick<RankChannel, 'on'>, private readonly processes = 1) {
    this.stopListening = ch.on('prepare', (m) => {
      const text = JSON.stringify(m.message.case);
      const tables = this.timed(parseCase(m.message.case));
      tables.catch(() => undefined); // forCase awaits it (and meets its failure there)
      this.early = { text, tables };
    });
  }

  /** The tables of the configured case `c` (`json`: as it arrived): those `prepare` built when it brought the same case, else built now. */
  async forCase(json: unknown, c: Case): Promise<SolverTables> {
    this.stopListening();
    const early = this.early;
    this.early = null;
    return early !== null && early.text === JSON.stringify(json) ? early.tables : this.timed(c);
  }

  /** The tables `prepare` is building that forCase has not taken yet, or null (tests). */
  get prepared(): Promise<SolverTables> | null {
    return this.early?.tables ?? null;
  }

  /** Builds c's tables, noting how long it took and when it ended. */
  private async timed(c: Case): Promise<SolverTables> {
    const t0 = performance.now();
    try {
      return await buildTablesOnThreads(c, this.processes);
    } finally {
      this.builtAt = performance.now();
      this.buildSeconds += (this.builtAt - t0) / 1000;
    }
  }
}
