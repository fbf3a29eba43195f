// The fields of a run while it goes, for the live view: the loop's per-submit sampling sums (onBatch) folded
// into a FieldAccumulator (the solver's own), or a multi-rank run's assembled accumulator (tick), and a slice of
// the chosen field at most every `everyMs`.
import type { Case } from '../common/case-schema.js';
import type { FieldSlice } from '../common/contract/types.js';
import { FieldAccumulator } from '../solver/field-accumulator.js';
import type { BatchReport } from '../solver/loop.js';
import { buildTables } from '../solver/tables.js';
import type { LiveView } from './child-messages.js';
import { fieldSlice } from './field-slice.js';

export class LiveFields {
  private readonly acc: FieldAccumulator;
  private lastMs = 0;

  /** acc: an accumulator fed elsewhere (a multi-rank run's assembler; call tick() after it grew), else an own one fed by onBatch. */
  constructor(private readonly kase: Case, private view: LiveView, private readonly post: (s: FieldSlice) => void, private readonly everyMs = 500,
    acc?: FieldAccumulator) {
    this.acc = acc ?? new FieldAccumulator(kase, buildTables(kase));
  }

  /** Adds one submit's sums; posts a slice when the last one is older than `everyMs`. */
  onBatch(b: BatchReport): void {
    if (!b.sums || b.passes === 0) return;
    this.acc.add(b.sums, b.passes);
    this.tick();
  }

  /** Posts a slice when there are samples and the last one is older than `everyMs`. */
  tick(): void {
    const now = Date.now();
    if (this.acc.samples > 0 && now - this.lastMs >= this.everyMs) {
      this.lastMs = now;
      this.postSlice();
    }
  }

  /** Changes the field or plane shown; posts it at once when there are samples. */
  setView(view: LiveView): void {
    this.view = view;
    if (this.acc.samples > 0) this.postSlice();
  }

  /** The slice of the fields so far. */
  slice(): FieldSlice {
    const values = this.acc.fields();
    const set = { cells: this.kase.grid.cells, cellSize: this.kase.grid.cellSize, samples: this.acc.samples, blocks: 0, values, errors: values };
    const index = this.view.index !== undefined && this.view.index < this.kase.grid.cells[{ x: 0, y: 1, z: 2 }[this.view.axis]] ? this.view.index : undefined;
    return fieldSlice(set, this.view.field, this.view.axis, index);
  }

  /** Posts the current slice. */
  private postSlice(): void {
    this.post(this.slice());
  }
}
