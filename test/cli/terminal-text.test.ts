// forTerminal: what user text (names, notes, tags, messages) becomes before it reaches a terminal. Escape
// sequences, carriage returns, C1 controls and bidirectional overrides are shown as \uXXXX and never act; line
// feeds stay (unless one line is asked for); JSON output keeps its value; the run summary and tables use it.
import { describe, expect, it } from 'vitest';
import { formatSummary, table } from '../../src-main/cli/format-summary.js';
import { forTerminal } from '../../src-main/cli/terminal-text.js';
import { summary } from '../store/store-fixtures.js';

const ACTING = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('forTerminal', () => {
  it('shows every control character as \\uXXXX and keeps ordinary text, backslashes and line feeds', () => {
    expect(forTerminal('a\u001b]0;title\u0007b')).toBe('a\\u001b]0;title\\u0007b');
    expect(forTerminal('x\r\ty\u009b1m\u202ez\u2028')).toBe('x\\u000d\\u0009y\\u009b1m\\u202ez\\u2028');
    expect(forTerminal('line 1\nline 2 é ✓ \\n')).toBe('line 1\nline 2 é ✓ \\n');
    expect(forTerminal('a\nb', true)).toBe('a\\u000ab');
    for (let c = 0; c < 0x3000; c++) expect(forTerminal(String.fromCharCode(c), true)).not.toMatch(ACTING);
  });

  it('is idempotent and keeps JSON valid with the same value', () => {
    const value = { name: 'box\u001b[2J\u007f\u0085\u009b\u202e\u2066', notes: 'a\nb' };
    const once = forTerminal(JSON.stringify(value));
    expect(forTerminal(once)).toBe(once);
    expect(once).not.toMatch(ACTING);
    expect(JSON.parse(once)).toEqual(value);
  });

  it('the run summary and tables print a hostile case name escaped', () => {
    const text = formatSummary({ ...summary(), case: 'box\u001b]0;pwned\u0007\r\u009b2J' });
    expect(text).not.toMatch(/[\u001b\u0007\r\u009b]/);
    expect(text).toContain('case box\\u001b]0;pwned\\u0007\\u000d\\u009b2J:');
    // widths count the escaped text, so the columns still line up
    const cell = 'x\\u001b[31m\\u000ay';
    expect(table([['a', 'b'], ['x\u001b[31m\ny', '1']])).toBe(`${'a'.padEnd(cell.length)}  b\n${cell}  1`);
  });
});
