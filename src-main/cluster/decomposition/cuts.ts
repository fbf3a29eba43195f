// One-dimensional cuts: where to split n planes into parts, evenly or so that each part holds an equal
// share of a weight profile. Slabs, blocks and RCB all cut with these.

/** Cut positions 0 = c0 < c1 < ... < c_parts = n splitting n planes into parts nearly equal runs (needs parts <= n). */
export function evenCuts(n: number, parts: number): number[] {
  const cuts: number[] = [];
  for (let i = 0; i <= parts; i++) cuts.push(Math.floor((i * n) / parts));
  return cuts;
}

/** Prefix sums of a profile: prefix[j] = profile[0] + ... + profile[j-1], length n + 1. */
export function prefixSums(profile: ArrayLike<number>): Float64Array {
  const prefix = new Float64Array(profile.length + 1);
  for (let i = 0; i < profile.length; i++) prefix[i + 1] = prefix[i] + profile[i];
  return prefix;
}

/** The cut j in [min, max] whose prefix[j] is nearest to target; on a flat run of equal values, its middle. */
export function nearestCut(prefix: Float64Array, target: number, min: number, max: number): number {
  let lo = min;
  let hi = max;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (prefix[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  // lo: first j in [min, max] with prefix[j] >= target (or max); j - 1 may be nearer.
  let best = lo;
  if (lo > min && target - prefix[lo - 1] <= prefix[lo] - target) best = lo - 1;
  // Centre the cut on a run of planes with zero weight, so empty regions split by volume.
  let first = best;
  let last = best;
  while (first > min && prefix[first - 1] === prefix[best]) first--;
  while (last < max && prefix[last + 1] === prefix[best]) last++;
  return (first + last) >> 1;
}

/** Cuts splitting a profile of n planes into parts runs of nearly equal weight, at least one plane each (needs parts <= n). */
export function weightedCuts(profile: ArrayLike<number>, parts: number): number[] {
  const n = profile.length;
  const prefix = prefixSums(profile);
  const total = prefix[n];
  if (!(total > 0)) return evenCuts(n, parts);
  const cuts = [0];
  for (let i = 1; i < parts; i++) {
    cuts.push(nearestCut(prefix, (total * i) / parts, cuts[i - 1] + 1, n - (parts - i)));
  }
  cuts.push(n);
  return cuts;
}
