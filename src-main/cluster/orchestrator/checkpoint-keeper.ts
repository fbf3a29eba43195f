// The orchestrator's side of a multi-rank run's checkpoints. After a submit that ends a checkpoint interval
// merges, it encodes the host state (fields accumulator, decomposition, block plan, balancing); every rank writes its
// own file after that submit, before it starts the next one. When the next submit has merged, every rank's
// file is therefore on disk: the keeper writes loop.bin and the manifest, which completes the checkpoint.
import type { Case } from '../../common/case-schema.js';
import { checkpointDue } from '../../solver/checkpoint/checkpoint-schedule.js';
import { encodeLoopSnapshot, type LoopSnapshot } from '../../solver/checkpoint/checkpoint-state.js';
import { caseHash, type CheckpointTarget } from '../../solver/checkpoint/checkpoint-target.js';
import { completeWithLoopBytes } from '../../solver/checkpoint/checkpoint-writer.js';
import type { StepStats } from '../../solver/loop-types.js';
import type { Decomposition } from '../decomposition/types.js';
import type { RunAssembler } from './run-assembler.js';

export class CheckpointKeeper {
  private pending: { step: number; ranks: number; bytes: Buffer } | null = null;
  private readonly hash: string;

  constructor(private readonly c: Case, private readonly target: CheckpointTarget,
    private readonly blockPlan: { from: number; steps: number }, private readonly onWarning: (text: string) => void) {
    this.hash = caseHash(c);
  }

  /** Whether the submit of these merged steps ends with a checkpoint (the ranks write their files after it). */
  due(steps: readonly StepStats[]): boolean {
    return checkpointDue(this.c, steps[0].step - 1, steps[steps.length - 1].step, this.blockPlan.from + this.blockPlan.steps);
  }

  /**
   * Called after each merged submit (and after its steps were recorded; with dynamic balancing, once the layout at its
   * end is known, since the ranks write their files in it, after any re-split they take there): completes the previous
   * checkpoint, opens the next when due with `decomposition` (the one the ranks' files are written in) and the
   * balancing state.
   */
  merged(steps: StepStats[], assembler: RunAssembler, decomposition: Decomposition, rebalance: LoopSnapshot['rebalance'] = null): void {
    const last = steps[steps.length - 1].step;
    if (this.pending && last > this.pending.step) {
      const p = this.pending;
      this.pending = null;
      try {
        completeWithLoopBytes(this.target.folder, p.step, p.ranks, p.bytes);
      } catch (e) {
        this.onWarning(`the checkpoint after step ${p.step} was not completed: ${(e as Error).message}`);
      }
    }
    if (!this.due(steps)) return;
    this.pending = {
      step: last,
      ranks: decomposition.boxes.length,
      bytes: encodeLoopSnapshot({
        step: last, ranks: decomposition.boxes.length, caseHash: this.hash, decomposition,
        blockPlan: this.blockPlan, fields: this.c.sampling.enabled ? { ...assembler.fields.counters } : null, rebalance,
      }),
    };
  }
}
