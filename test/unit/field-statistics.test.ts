// Batch means: the standard error of independent blocks equals sigma/sqrt(blocks).
import { describe, expect, it } from 'vitest';
import { submitsPerBlock } from '../../src-main/solver/field-statistics.js';

describe('batch-means blocks', () => {
  it('~20 blocks per run', () => {
    expect(submitsPerBlock(1)).toBe(1);
    expect(submitsPerBlock(40)).toBe(2);
    expect(submitsPerBlock(401)).toBe(21);
  });
});
