// Opens the WebGPU device (Dawn through the `webgpu` package) with the limits the solver needs,
// and turns "no adapter" into an error that says which driver to install.
import { create, globals } from 'webgpu';
import { withDawnNoticesMuted } from './dawn-notices.js';
import { paceGpuPolling } from './poll-pacing.js';

/** What a run records about the adapter it ran on. */
export interface AdapterDescription {
  description: string;
  backend: string;
  vendor: string;
  architecture: string;
  /** A CPU implementation (Mesa's lavapipe). */
  software?: boolean;
}

/** An open device and the facts about it the solver and the pre-launch check use. */
export interface Gpu {
  device: GPUDevice;
  adapter: AdapterDescription;
  limits: GPUSupportedLimits;
  hasTimestamps: boolean;
  /** Keeps Dawn's instance alive as long as the device is in use. */
  instance: GPU;
  /** Validation or out-of-memory errors the device reported so far (checked after each submit). */
  errors: string[];
}

/** Throws when the device has reported an error since it was opened (a bug, or out of memory). */
export function throwIfGpuError(gpu: Gpu): void {
  if (gpu.errors.length > 0) {
    throw new Error(`the GPU reported an error: ${gpu.errors[0].split('\n')[0]} (${gpu.errors.length} in all; run with DSMC_DEBUG=1 for details)`);
  }
}

/** Thrown when no adapter is usable; the message names the driver to install. */
export class NoAdapterError extends Error {}

const INSTALL_HINT =
  'Install a GPU driver with Vulkan (Linux/Windows), Metal (macOS) or D3D12 (Windows) support. ' +
  'On a headless Linux box without a GPU, Mesa lavapipe >= 23 works; on Debian 12: ' +
  'add bookworm-backports and run `apt-get install -t bookworm-backports mesa-vulkan-drivers libvulkan1` ' +
  '(see README.md). Check with `vulkaninfo --summary`.';

/** Resolves the promise or rejects after ms milliseconds with the given message. */
async function withTimeout<T>(p: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new NoAdapterError(message)), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Installs the WebGPU globals (GPUBufferUsage, ...) once. */
function installGlobals(): void {
  if (!(globalThis as { GPUBufferUsage?: unknown }).GPUBufferUsage) Object.assign(globalThis, globals);
}

/**
 * DSMC_SKIP_WORKGROUP_INIT=1 (a benchmark switch, issue 24): Dawn leaves workgroup memory uninitialized instead of
 * zero-filling it before each dispatch (a store and a barrier per workgroup); every shader writes its workgroup
 * variables before it reads them.
 */
function workgroupInitToggle(): string[] {
  return process.env.DSMC_SKIP_WORKGROUP_INIT === '1' ? ['enable-dawn-features=disable_workgroup_init'] : [];
}

/**
 * Whether the device asks for subgroup operations: when the adapter has them, unless DSMC_SUBGROUPS=0 (a benchmark
 * switch: the move then counts each particle with an atomic of its own, count-atomic.wgsl).
 */
function wantsSubgroups(adapter: GPUAdapter): boolean {
  return adapter.features.has('subgroups') && process.env.DSMC_SUBGROUPS !== '0';
}

/** Requests the high-performance adapter and a device with its largest buffer and binding limits. */
export async function openGpu(options: { timeoutMs?: number } = {}): Promise<Gpu> {
  installGlobals();
  paceGpuPolling();
  process.env.XDG_RUNTIME_DIR ??= '/tmp';
  const backend = nativeBackend();
  const instance = create([`backend=${backend}`, 'disable-dawn-features=timestamp_quantization', ...workgroupInitToggle()]);
  const timeoutMs = options.timeoutMs ?? 30000;
  // Dawn's harmless notices about lavapipe's capped limits come while it lists the adapters (dawn-notices.ts)
  const adapter = await withDawnNoticesMuted(() => withTimeout(
    instance.requestAdapter({ powerPreference: 'high-performance' }),
    timeoutMs,
    `No GPU adapter answered within ${timeoutMs / 1000} s. ${INSTALL_HINT}`,
  ));
  if (!adapter) throw new NoAdapterError(`No WebGPU adapter found. ${INSTALL_HINT}`);
  const info = adapter.info;
  const hasTimestamps = adapter.features.has('timestamp-query');
  const wanted = [
    'maxStorageBufferBindingSize', 'maxBufferSize', 'maxStorageBuffersPerShaderStage',
    'maxComputeWorkgroupStorageSize', 'maxComputeInvocationsPerWorkgroup', 'maxComputeWorkgroupSizeX',
  ] as const;
  const requiredLimits: Record<string, number> = {};
  for (const k of wanted) requiredLimits[k] = adapter.limits[k];
  const device = await withTimeout(
    adapter.requestDevice({
      label: 'dsmc-solver',
      requiredFeatures: [...(hasTimestamps ? ['timestamp-query' as const] : []), ...(wantsSubgroups(adapter) ? ['subgroups' as GPUFeatureName] : [])],
      requiredLimits,
    }),
    timeoutMs,
    `The GPU adapter did not open a device within ${timeoutMs / 1000} s. ${INSTALL_HINT}`,
  );
  const errors: string[] = [];
  device.addEventListener('uncapturederror', (e) => {
    const err = (e as GPUUncapturedErrorEvent).error;
    errors.push(err.message);
    if (process.env.DSMC_DEBUG) process.stderr.write(`WebGPU error: ${err.message}\n`);
  });
  const detail = [info.vendor, info.architecture].filter((s) => s).join('/');
  const description = `${info.description || info.device}${detail ? ` (${detail})` : ''}`;
  return {
    device,
    instance,
    errors,
    limits: device.limits,
    hasTimestamps,
    adapter: {
      description,
      backend,
      vendor: info.vendor,
      architecture: info.architecture,
      software: info.isFallbackAdapter || info.architecture === 'software',
    },
  };
}

/** The native API Dawn is asked to use on this platform. */
function nativeBackend(): string {
  if (process.platform === 'darwin') return 'metal';
  if (process.platform === 'win32') return 'd3d12';
  return 'vulkan';
}
