// The fields of a run while it goes, for the live view: a slice of the chosen field of the run's own
// FieldAccumulator (a one-rank solver's, or a multi-rank run's assembled one), at most every `everyMs`.
import type { Case } from '../common/case-schema.js';
import type { FieldSlice } from '../common/contract/types.js';
import type { FieldAccumulator } from '../solver/field-accumulator.js';
import type { LiveView } from './child-messages.js';
import { planeCells, planeSlice } from './field-slice.js';

export class LiveFields {
  private lastMs = 0;

  /** acc: the run's accumulator, fed elsewhere (call tick() after it grew). */
  constructor(private readonly kase: Case, private view: LiveView, private readonly post: (s: FieldSlice) => void, private readonly everyMs: number,
    private readonly acc: FieldAccumulator) {}

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

  /** The slice of the fields so far: computed on the plane's cells only (a big grid has millions, a plane thousands). */
  slice(): FieldSlice {
    const { cells } = this.kase.grid;
    const { field, axis } = this.view;
    const index = this.view.index !== undefined && this.view.index < cells[{ x: 0, y: 1, z: 2 }[axis]] ? this.view.index : undefined;
    const values = this.acc.fieldsOfCells(planeCells(cells, axis, index))[field];
    return planeSlice(cells, this.acc.samples, field, axis, index, (_cell, k) => values[k]);
  }

  /** Posts the current slice. */
  private postSlice(): void {
    this.post(this.slice());
  }
}
