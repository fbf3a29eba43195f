// The runs table's pure logic: wall time, rows with their differing parameters, filtering and sorting.
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src-main/common/run-record.js';
import { filterRows, runRows, sortRows, wallSeconds } from '../../src-main/common/runs-table.js';

/** A run record with the given fields over plain defaults. */
function run(over: Partial<RunRecord>): RunRecord {
  return {
    id: 1, project: 'p', caseId: 1, caseName: 'box', caseHash: 'h', status: 'completed', reason: null, startedAt: '2026-01-01T00:00:00Z',
    endedAt: '2026-01-01T00:00:04.5Z', seed: 1, ranks: 1, gpus: 1, adapter: { description: '', backend: '' }, productVersion: '0', summary: null,
    lastStep: 10, tags: [], notes: '', ...over,
  };
}

describe('runs table', () => {
  const runs = [run({ id: 1, tags: ['baseline'] }), run({ id: 2, endedAt: null, status: 'running' }), run({ id: 3, caseName: 'wedge' })];
  const rows = runRows(runs, [{ path: 'run.seed', values: ['3', '10', '(absent)'] }]);

  it('takes wall time from start to end, null while running', () => {
    expect(wallSeconds(runs[0])).toBe(4.5);
    expect(rows.map((r) => r.wallSeconds)).toEqual([4.5, null, 4.5]);
  });

  it('filters by every word, tags and path=value included', () => {
    expect(filterRows(rows, 'BASELINE').map((r) => r.run.id)).toEqual([1]);
    expect(filterRows(rows, 'run.seed=10 running').map((r) => r.run.id)).toEqual([2]);
    expect(filterRows(rows, 'box completed').map((r) => r.run.id)).toEqual([1]);
    expect(filterRows(rows, '  ').length).toBe(3);
  });

  it('sorts parameters as numbers, missing values last both ways, and ties in their order', () => {
    expect(sortRows(rows, 'param:run.seed').map((r) => r.run.id)).toEqual([1, 2, 3]); // 3 < 10 as numbers, absent last
    expect(sortRows(rows, 'param:run.seed', true).map((r) => r.run.id)).toEqual([2, 1, 3]);
    expect(sortRows(rows, 'wallSeconds', true).map((r) => r.run.id)).toEqual([1, 3, 2]);
    expect(sortRows(rows, 'caseName', true).map((r) => r.run.id)).toEqual([3, 1, 2]);
  });
});
