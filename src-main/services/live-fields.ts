// The fields of a run while it goes, for the live view: a slice of the chosen field, computed from the sums of
// the plane's cells alone (a one-rank solver reads them from its GPU), at most every `everyMs`.
import type { Case } from '../common/case-schema.js';
import { missingFieldMessage } from '../common/field-names.js';
import type { FieldSlice } from '../common/contract/types.js';
import type { LiveFieldSource } from '../solver/loop-types.js';
import type { LiveView } from './child-messages.js';
import { planeCells, planeSlice } from './field-slice.js';

export class LiveFields {
  private lastMs = 0;
  /** The view changed since the last slice (posted at the next tick, whatever its age). */
  private viewChanged = false;
  /** A slice is being read (ticks meanwhile do nothing). */
  private busy = false;

  /** source: the run's fields so far (call tick() between submits). */
  constructor(private readonly kase: Case, private view: LiveView, private readonly post: (s: FieldSlice) => void, private readonly everyMs: number,
    private readonly source: LiveFieldSource) {}

  /** Posts a slice when there are samples and the last one is older than `everyMs` (or the view changed). */
  async tick(): Promise<void> {
    const now = Date.now();
    if (this.busy || this.source.samples <= 0 || !(this.viewChanged || now - this.lastMs >= this.everyMs)) return;
    this.busy = true;
    this.lastMs = now;
    this.viewChanged = false;
    try {
      this.post(await this.slice());
    } finally {
      this.busy = false;
    }
  }

  /** Changes the field or plane shown; the next tick posts it. */
  setView(view: LiveView): void {
    this.view = view;
    this.viewChanged = true;
  }

  /** The slice of the fields so far: computed on the plane's cells only (a big grid has millions, a plane thousands). */
  async slice(): Promise<FieldSlice> {
    const { cells } = this.kase.grid;
    const { field, axis } = this.view;
    const index = this.view.index !== undefined && this.view.index < cells[{ x: 0, y: 1, z: 2 }[axis]] ? this.view.index : undefined;
    const fields = await this.source.fieldsOfCells(planeCells(cells, axis, index));
    const values = fields[field];
    if (!values) throw new Error(missingFieldMessage(field));
    const samples = this.source.samples;
    return planeSlice(cells, samples, field, axis, index, { valueAt: (_cell, k) => values[k], samplesAt: (_cell, k) => fields.particlesPerSample[k] * samples });
  }
}
