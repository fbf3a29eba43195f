// Dawn's harmless start-up notices. On adapters that report huge descriptor limits (lavapipe: 1,000,000 dynamic
// buffers), Dawn caps them at its own maximum (16) while it enumerates the adapters and says so on stderr, once per
// process: "Warning: maxDynamicUniformBuffersPerPipelineLayout artificially reduced from 1000000 to 16 to fit dynamic
// offset allocation limit." The solver binds no dynamic buffers, so nothing changes. Dawn writes them with fprintf
// from native code (webgpu 0.6.2 offers no logging hook), so a process cannot mute its own; where a process reads
// another's stderr (rank processes, the app's run child) these lines are dropped.

/** True for one of Dawn's "artificially reduced ... dynamic offset allocation limit" lines. */
export function isHarmlessDawnNotice(line: string): boolean {
  return /^Warning: maxDynamic(Uniform|Storage)BuffersPerPipelineLayout artificially reduced from \d+ to \d+ to fit dynamic offset allocation limit\.\s*$/.test(line);
}
