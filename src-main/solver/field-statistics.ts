// Statistical standard errors of the sampled fields by the method of batch means: the sampling
// passes are grouped into consecutive blocks (about 20 per run), each block's fields are computed
// on their own (on the GPU, sample.wgsl sample_close, with Welford's running mean and M2), and the
// spread of the block values gives the standard error of the run's value. Blocks many steps long
// make this honest for time-correlated DSMC samples, where the naive sigma/sqrt(samples) would be too small.
/** Submits per block so that a run's sampled submits form about `target` blocks. */
export function submitsPerBlock(sampledSubmits: number, target = 20): number {
  return Math.max(1, Math.ceil(sampledSubmits / target));
}
