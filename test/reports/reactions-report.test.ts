// The profile report's reactions: the HTML section (each reaction's count, kind and source; the chemical energy, or
// that the reactions were only counted) and the CSV table; nothing for a run without reactions.
import { describe, expect, it } from 'vitest';
import { reactionTables, reactionsSection } from '../../src-main/reports/composition-report.js';
import type { ReactionsSummary } from '../../src-main/common/run-summary.js';

const made: ReactionsSummary = {
  performed: true,
  chemicalEnergy: 7.802e-9,
  reactions: [
    { equation: 'O2 + N2 --> O + O + N2', kind: 'dissociation', source: 'reactions.use air5', count: 334 },
    { equation: 'N2 + O --> NO + N', kind: 'exchange', source: 'reactions.list[0]', count: 0 },
  ],
};

describe('reactions in the profile report', () => {
  it('lists every reaction with its count (escaped) and the chemical energy', () => {
    const html = reactionsSection(made);
    expect(html).toContain('<h2>Reactions</h2>');
    expect(html).toContain('7.8020e-9 J');
    expect(html).toContain('<td>O2 + N2 --&gt; O + O + N2</td><td>dissociation</td><td class="num" data-key="reactions.0.count" data-value="334">334</td>');
    expect(html).toContain('data-value="0">0</td><td>reactions.list[0]</td>');
  });

  it('says when the reactions were counted, not made; nothing without reactions', () => {
    expect(reactionsSection({ ...made, performed: false, chemicalEnergy: 0 })).toContain('Counted, not made');
    expect(reactionsSection(null)).toBe('');
    expect(reactionTables(null)).toEqual([]);
  });

  it('gives a CSV table of equation, kind, count, performed, source', () => {
    const [t] = reactionTables(made);
    expect(t.name).toBe('reactions');
    expect(t.header).toEqual(['equation', 'kind', 'count', 'performed', 'source']);
    expect(t.rows[0]).toEqual(['O2 + N2 --> O + O + N2', 'dissociation', 334, 1, 'reactions.use air5']);
  });
});
