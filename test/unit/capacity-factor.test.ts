// DSMC_CAPACITY_FACTOR (state.ts capacityFactorFromEnvironment): a benchmark switch that starts the particle buffers
// larger than planned; unset is 1, a number from 1 to 16 is taken, anything else stops with the variable and the fix.
import { describe, expect, it } from 'vitest';
import { capacityFactorFromEnvironment } from '../../src-main/solver/state.js';

describe('DSMC_CAPACITY_FACTOR', () => {
  it('is 1 unset or empty, and the number given from 1 to 16', () => {
    expect(capacityFactorFromEnvironment({})).toBe(1);
    expect(capacityFactorFromEnvironment({ DSMC_CAPACITY_FACTOR: '' })).toBe(1);
    expect(capacityFactorFromEnvironment({ DSMC_CAPACITY_FACTOR: '1.5' })).toBe(1.5);
    expect(capacityFactorFromEnvironment({ DSMC_CAPACITY_FACTOR: '16' })).toBe(16);
  });

  it('stops on a factor below 1, above 16 or not a number, naming the variable and the range', () => {
    for (const raw of ['0.5', '17', 'lots', 'NaN']) {
      expect(() => capacityFactorFromEnvironment({ DSMC_CAPACITY_FACTOR: raw })).toThrow(/DSMC_CAPACITY_FACTOR is ".*": give a number from 1 to 16/);
    }
  });
});
