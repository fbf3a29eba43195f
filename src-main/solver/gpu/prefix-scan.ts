// Exclusive prefix sum of a u32 buffer on the GPU (shaders/scan.wgsl), any length: blocks of
// 16*256 values (8*256 on a device with less than 18 KB of workgroup memory) are scanned, their sums scanned
// recursively, and the offsets added back.
import { dispatchDims, makeBuffer, makeBufferWith } from './buffers.js';
import type { PipelineCache } from './pipeline-cache.js';
import { ScanParams } from './struct-layouts.js';

const WG = 256;

/** Values per invocation of scan.wgsl on a device: 16 where a block of 16 * 256 words (with scan.wgsl's spare words and totals) fits its workgroup memory, else 8. */
export function scanPerThread(device: GPUDevice): number {
  const words = (per: number) => per * WG + (per * WG) / 32 + WG + WG / 16;
  return 4 * words(16) <= device.limits.maxComputeWorkgroupStorageSize ? 16 : 8;
}

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

  /** perThread: values per invocation (scanPerThread's choice for the device unless a test sets 8 or 16). */
  constructor(private readonly device: GPUDevice, cache: PipelineCache, readonly label: string, readonly length: number, perThread = scanPerThread(device)) {
    const BLOCK = perThread * WG;
    this.scanPipeline = cache.get({ file: 'scan.wgsl', entry: 'scan_blocks', constants: { SCAN_PER_THREAD: perThread } });
    this.addPipeline = cache.get({ file: 'scan.wgsl', entry: 'add_offsets', constants: { SCAN_PER_THREAD: perThread } });
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
