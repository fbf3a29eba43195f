// control.wgsl: single-invocation bookkeeping between phases: step counter, particle counts and
// the step-statistics ring. Keeps the host out of the per-step loop. (Particle kernels are
// dispatched over the buffer capacity and stop at the live count: on Dawn an indirect dispatch
// costs far more than the idle invocations, since each is validated by an extra pass.)

@group(0) @binding(0) var<uniform> params: SimParams;
@group(0) @binding(1) var<storage, read_write> ctl: array<u32>;
@group(0) @binding(2) var<storage, read_write> stats: array<u32>;
// sums whose exclusive scan gives the total: cell counts (sort) or injection counts (inject)
@group(0) @binding(4) var<storage, read> counts: array<u32>;
@group(0) @binding(5) var<storage, read> starts: array<u32>;
// begin_step clears the per-cell counters that move.wgsl fills
@group(0) @binding(6) var<storage, read_write> cellCounters: array<atomic<u32>>;
// and the migrants per destination rank (multi-rank runs)
@group(0) @binding(7) var<storage, read_write> migCounts: array<atomic<u32>>;
// the arrivals buffer (move.wgsl: append_arrivals): their count in word 0
@group(0) @binding(18) var<storage, read> arrivals: array<u32>;

// Clears the per-cell counters and the migrants per destination of the set about to move (every invocation one).
fn clear_counter(c: u32) {
  if (c < params.nLocal) { atomicStore(&cellCounters[c], 0u); }
  if (MULTI_RANK && c < params.worldSize) { atomicStore(&migCounts[c], 0u); }
}

// Before the interior part of the next step's move (move.wgsl MOVE_PART 1): only the counters of its set.
@compute @workgroup_size(WG_SIZE)
fn clear_counters(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                  @builtin(local_invocation_index) li: u32) {
  clear_counter(flat_id(wg, nwg, li));
}

// Advances the step counter and opens its statistics slot (one invocation).
fn open_step() {
  let step = ctl[CTL_STEP] + 1u;
  ctl[CTL_STEP] = step;
  let slot = (step % params.statsRing) * STATS_WORDS;
  ctl[CTL_STATS_SLOT] = slot;
  let n = ctl[CTL_N];
  ctl[CTL_N_ALL] = n;
  ctl[CTL_N_MOVED] = n;
  ctl[CTL_INJECTED] = 0u;
  if (MULTI_RANK) { ctl[CTL_N_INTERIOR_BEFORE] = ctl[CTL_N_INTERIOR]; }
  for (var k = 0u; k < STATS_WORDS; k++) { stats[slot + k] = 0u; }
  stats[slot + ST_STEP] = step;
  stats[slot + ST_N_BEFORE] = n;
}

// Starts a step: every invocation clears a cell counter; invocation 0 also advances the step
// counter and opens its statistics slot (one dispatch for both saves a barrier per step).
@compute @workgroup_size(WG_SIZE)
fn begin_step(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
              @builtin(local_invocation_index) li: u32) {
  let c = flat_id(wg, nwg, li);
  clear_counter(c);
  if (c == 0u) { open_step(); }
}

// Starts a step whose interior part already moved (clear_counters cleared its counters before that part).
@compute @workgroup_size(1)
fn begin_rest() {
  open_step();
}

// After the injection counts are scanned: reserves room for the injected particles and hands out ids.
// Particles beyond the buffer capacity are counted in CTL_OVERFLOW (the host stops the run), never lost silently.
@compute @workgroup_size(1)
fn after_inject_scan() {
  let last = params.nFaceCells - 1u;
  let total = starts[last] + counts[last];
  let n = ctl[CTL_N];
  let room = params.capacity - n;
  let fit = min(total, room);
  ctl[CTL_OVERFLOW] = ctl[CTL_OVERFLOW] + (total - fit);
  ctl[CTL_N_ALL] = n + fit;
  ctl[CTL_INJECTED] = fit;
  stats[ctl[CTL_STATS_SLOT] + ST_INJECTED] = fit;
}

// After append_arrivals: the arrived particles join the N_ALL particles the sort takes; their count, uploaded with
// their records in the arrivals buffer's word 0, goes to CTL_ARRIVALS.
@compute @workgroup_size(1)
fn after_arrivals() {
  let count = arrivals[0];
  ctl[CTL_ARRIVALS] = count;
  ctl[CTL_N_ALL] = ctl[CTL_N_ALL] + count;
}
