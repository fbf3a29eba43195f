// Batch means: the standard error of independent blocks equals sigma/sqrt(blocks).
import { describe, expect, it } from 'vitest';
import { BatchMeans, submitsPerBlock } from '../../src-main/solver/field-statistics.js';
import { FIELD_NAMES, type Fields } from '../../src-main/solver/fields.js';

/** Deterministic standard normal numbers (Box-Muller over a small LCG). */
function normals(seed: number): () => number {
  let s = seed >>> 0;
  const u = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) + 0.5) / 4294967296;
  return () => Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u());
}

describe('BatchMeans', () => {
  it('estimates sigma/sqrt(K) from K blocks', () => {
    const nCells = 2000, K = 20, sigma = 3;
    const bm = new BatchMeans(nCells);
    const g = normals(7);
    for (let b = 0; b < K; b++) {
      const f = Object.fromEntries(FIELD_NAMES.map((k) => [k, Float64Array.from({ length: nCells }, () => 10 + sigma * g())])) as Fields;
      bm.add(f);
    }
    const se = bm.errors().T;
    const mean = se.reduce((a, x) => a + x, 0) / nCells;
    // E[s] is slightly below sigma for K = 20 (c4 = 0.987); over 2000 cells the average is tight
    expect(mean / (sigma / Math.sqrt(K))).toBeGreaterThan(0.95);
    expect(mean / (sigma / Math.sqrt(K))).toBeLessThan(1.01);
    expect(bm.count).toBe(K);
  });

  it('gives NaN with fewer than two blocks, and ~20 blocks per run', () => {
    const bm = new BatchMeans(3);
    expect(Number.isNaN(bm.errors().n[0])).toBe(true);
    expect(submitsPerBlock(1)).toBe(1);
    expect(submitsPerBlock(40)).toBe(2);
    expect(submitsPerBlock(401)).toBe(21);
  });
});
