// Compute pipelines created once per device and reused, keyed by shader, modules, entry point and
// override constants (never created inside the step loop).
import { shaderSource } from './shader-source.js';
import { stepTimeline } from '../step-timeline.js';

/** What identifies one compute pipeline. */
export interface PipelineKey {
  file: string;
  entry: string;
  modules?: readonly string[];
  constants?: Record<string, number>;
}

/** Per-device cache of shader modules and compute pipelines. */
export class PipelineCache {
  private readonly modules = new Map<string, GPUShaderModule>();
  private readonly pipelines = new Map<string, GPUComputePipeline>();
  /** Seconds spent compiling shader modules and pipelines so far (a run's set-up reports them). */
  compileSeconds = 0;

  constructor(private readonly device: GPUDevice, private readonly defaults: Record<string, number> = {}) {}

  /** The pipeline for key, compiled on first use. */
  get(key: PipelineKey): GPUComputePipeline {
    const constants = { ...this.defaults, ...key.constants };
    const id = JSON.stringify([key.file, key.modules ?? [], key.entry, constants]);
    let pipeline = this.pipelines.get(id);
    if (!pipeline) {
      const t0 = performance.now();
      pipeline = this.device.createComputePipeline({
        label: `${key.file}:${key.entry}`,
        layout: 'auto',
        compute: { module: this.module(key.file, key.modules ?? []), entryPoint: key.entry, constants },
      });
      this.pipelines.set(id, pipeline);
      this.compileSeconds += (performance.now() - t0) / 1000;
      stepTimeline?.hostEvent(`pipeline ${key.file}:${key.entry}`, t0);
    }
    return pipeline;
  }

  /** Number of pipelines compiled so far (the loop test checks it stays flat while stepping). */
  get size(): number {
    return this.pipelines.size;
  }

  /** The shader module of a file and its shared modules, compiled once. */
  private module(file: string, modules: readonly string[]): GPUShaderModule {
    const id = [...modules, file].join('+');
    let m = this.modules.get(id);
    if (!m) {
      m = this.device.createShaderModule({ label: id, code: shaderSource(file, modules) });
      this.modules.set(id, m);
    }
    return m;
  }
}
