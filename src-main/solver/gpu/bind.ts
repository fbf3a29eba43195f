// Bind-group creation from a binding-number -> buffer table (group 0 of an 'auto' layout).

/** Bind group 0 of pipeline with whole buffers at the given binding numbers. */
export function bindBuffers(device: GPUDevice, pipeline: GPUComputePipeline, label: string, buffers: Record<number, GPUBuffer>): GPUBindGroup {
  return device.createBindGroup({
    label,
    layout: pipeline.getBindGroupLayout(0),
    entries: Object.entries(buffers).map(([binding, buffer]) => ({ binding: Number(binding), resource: { buffer } })),
  });
}
