// Exclusive prefix sum of a u32 buffer on the GPU (shaders/scan.wgsl), any length: blocks of
// 16*256 values are scanned, their sums scanned recursively, and the offsets added back.
import { dispatchDims, makeBuffer, makeBufferWith } from './buffers.js';
import type { PipelineCache } from './pipeline-cache.js';
import { ScanParams } from './struct-layouts.js';

const WG = 256;
/** Values per workgroup block: PER_THREAD (16, scan.wgsl) per invocation. */
export const SCAN_BLOCK = 16 * WG;
const BLOCK = SCAN_BLOCK;

/** One level of the scan hierarchy. */
interface Level {
  n: number;
  blocks: number;
  params: GPUBuffer;
  blockSums: GPUBuffer;
  /** Scanned block sums (the next level's output), when there is more than one block. */
  scannedSums?: GPUBuffer;
}

/** A reusable scan of up to `length` values from src into dst (bound with bind()). */
export class PrefixScan {
  private readonly levels: Level[] = [];
  private scanGroups: GPUBindGroup[] = [];
  private addGroups: GPUBindGroup[] = [];
  private readonly scanPipeline: GPUComputePipeline;
  private readonly addPipeline: GPUComputePipeline;

  constructor(private readonly device: GPUDevice, cache: PipelineCache, readonly label: string, readonly length: number) {
    this.scanPipeline = cache.get({ file: 'scan.wgsl', entry: 'scan_blocks' });
    this.addPipeline = cache.get({ file: 'scan.wgsl', entry: 'add_offsets' });
    let n = Math.max(length, 1);
    for (let l = 0; ; l++) {
      const blocks = Math.ceil(n / BLOCK);
      const params = makeBufferWith(device, `${label}:scan-params-${l}`, ScanParams.pack({ n }), 0x40); // UNIFORM
      const blockSums = makeBuffer(device, `${label}:block-sums-${l}`, 4 * blocks);
      const level: Level = { n, blocks, params, blockSums };
      this.levels.push(level);
      if (blocks === 1) break;
      level.scannedSums = makeBuffer(device, `${label}:scanned-sums-${l}`, 4 * blocks);
      n = blocks;
    }
  }

  /** Points the scan at its input (read) and output (written) buffers. */
  bind(src: GPUBuffer, dst: GPUBuffer): void {
    this.scanGroups = [];
    this.addGroups = [];
    this.levels.forEach((level, l) => {
      const input = l === 0 ? src : this.levels[l - 1].blockSums;
      const output = l === 0 ? dst : this.levels[l - 1].scannedSums!;
      this.scanGroups.push(this.device.createBindGroup({
        label: `${this.label}:scan-${l}`,
        layout: this.scanPipeline.getBindGroupLayout(0),
        entries: [
          { binding: 0, resource: { buffer: level.params } },
          { binding: 1, resource: { buffer: input } },
          { binding: 2, resource: { buffer: output } },
          { binding: 3, resource: { buffer: level.blockSums } },
        ],
      }));
      if (level.scannedSums) {
        this.addGroups.push(this.device.createBindGroup({
          label: `${this.label}:add-${l}`,
          layout: this.addPipeline.getBindGroupLayout(0),
          entries: [
            { binding: 0, resource: { buffer: level.params } },
            { binding: 2, resource: { buffer: output } },
            { binding: 4, resource: { buffer: level.scannedSums } },
          ],
        }));
      }
    });
  }

  /** Records the scan's dispatches into a compute pass. */
  encode(pass: GPUComputePassEncoder): void {
    this.levels.forEach((level, l) => {
      pass.setPipeline(this.scanPipeline);
      pass.setBindGroup(0, this.scanGroups[l]);
      pass.dispatchWorkgroups(...dispatchDims(level.blocks, 1));
    });
    for (let l = this.addGroups.length - 1; l >= 0; l--) {
      pass.setPipeline(this.addPipeline);
      pass.setBindGroup(0, this.addGroups[l]);
      pass.dispatchWorkgroups(...dispatchDims(this.levels[l].blocks, 1));
    }
  }
}
