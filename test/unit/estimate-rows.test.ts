// Issue 27, item 12: readable numbers with units for the case editor's estimates (SI prefixes, digit groups,
// millions, binary byte sizes, ×10ⁿ instead of 1.23e+12), and every estimate the real check gives for a molecular
// gas has a label and a unit (none falls through to the plain fallback).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { estimateRows } from '../../src-main/common/estimate-rows.js';
import { readableBytes, readableCount, readableNumber, readableSi } from '../../src-main/common/readable-numbers.js';
import { checkCaseWithLimits } from '../../src-main/services/gpu-info.js';

describe('readable numbers', () => {
  it('prints SI quantities with a prefix from p to k', () => {
    expect(readableSi(2.35e-3, 'm')).toBe('2.35 mm');
    expect(readableSi(1.88e-5, 'm')).toBe('18.8 µm');
    expect(readableSi(4.95e-8, 's')).toBe('49.5 ns');
    expect(readableSi(9.9996e-4, 's')).toBe('1 ms');
    expect(readableSi(0.25, 'm')).toBe('250 mm');
    expect(readableSi(1.5, 's', 1)).toBe('1.5 s');
    expect(readableSi(3600, 's', 1)).toBe('3,600 s');
    expect(readableSi(0, 's')).toBe('0 s');
    expect(readableSi(-2e-6, 'm')).toBe('-2 µm');
  });

  it('prints counts grouped, in millions or billions, and plain numbers with ×10ⁿ when very large or small', () => {
    expect(readableCount(81920)).toBe('81,920');
    expect(readableCount(999_999.4)).toBe('999,999');
    expect(readableCount(125_829_120)).toBe('125.8 million');
    expect(readableCount(2.5e9)).toBe('2.5 billion');
    expect(readableNumber(7.07043e6)).toBe('7.07×10⁶');
    expect(readableNumber(1.2e-5)).toBe('1.2×10⁻⁵');
    expect(readableNumber(12345.678)).toBe('12,300');
    expect(readableNumber(0.0707)).toBe('0.0707');
    expect(readableNumber(Number.NaN)).toBe('n/a');
  });

  it('prints byte sizes in binary units', () => {
    expect(readableBytes(512)).toBe('512 bytes');
    expect(readableBytes(3.25 * 1024 * 1024)).toBe('3.25 MiB');
    expect(readableBytes(1610612736)).toBe('1.50 GiB');
  });
});

describe('estimate rows', () => {
  it('labels every estimate of the check for a molecular, vibrating gas with a unit', () => {
    const c = JSON.parse(readFileSync(new URL('../../resources/cases/collide-box.json', import.meta.url), 'utf8'));
    c.species = [{ use: 'N2' }, { use: 'Ar' }];
    const check = checkCaseWithLimits(c, { maxStorageBufferBindingSize: 2 ** 31 - 4, maxBufferSize: 2 ** 34 }, 'test');
    expect(check.issues).toEqual([]);
    const rows = estimateRows(check.prelaunch!.estimates);
    expect(rows.filter((r) => !r.known).map((r) => r.key)).toEqual([]);
    expect(rows.map((r) => r.key)).toContain('vibrationalRelaxationTime N2');
    expect(rows[0].key).toBe('particles');
    for (const r of rows) expect(r.value, r.key).not.toMatch(/\de[+-]?\d/);
    expect(rows.find((r) => r.key === 'meanFreePath')!.value).toMatch(/^[\d.]+ [µnm]?m$/);
  });

  it('shows a name it does not know plainly rather than dropping it', () => {
    expect(estimateRows({ somethingNew: 1.5e-7 })).toEqual([{ key: 'somethingNew', label: 'somethingNew', value: '1.5×10⁻⁷', known: false }]);
  });
});
