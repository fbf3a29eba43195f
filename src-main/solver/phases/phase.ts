// What every timestep phase shares: the device, the pipeline cache and the state it works on.
import type { PipelineCache } from '../gpu/pipeline-cache.js';
import type { SampleKernelSetting } from '../sample-kernel-choice.js';
import type { SimState } from '../state.js';

/** Everything a phase needs to build its pipelines and bind groups. */
export interface PhaseContext {
  device: GPUDevice;
  cache: PipelineCache;
  state: SimState;
  /** Which kernels sample (sample-kernel-choice.ts): the collide phase builds its sampling variant unless 'pass'. */
  sampleKernel: SampleKernelSetting;
}

/** A timestep phase: its own .wgsl, pipelines made once, bind groups per particle set. */
export interface Phase {
  readonly name: string;
  /** (Re)creates bind groups, after setup and whenever the state's buffers are reallocated. */
  bind(): void;
  /** Sub-steps that detailed timing records as separate passes (absent: one pass). */
  readonly stages?: readonly string[];
  /** Records the phase's dispatches for one step (or only `stage`); `set` is the particle set it reads. */
  encode(pass: GPUComputePassEncoder, set: 0 | 1, stage?: string): void;
}
