import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { labelPrintable, sheetPrintable } from './documents.js';

describe('the options of a printable', () => {
  it('default to one PDF copy on the first stock declared', () => {
    expect(z.parse(labelPrintable('a', ['2x1', '4x6']).options, {})).toEqual({
      format: 'pdf',
      size: '2x1',
      copies: 1,
    });
    expect(z.parse(sheetPrintable('b').options, {})).toEqual({
      format: 'pdf',
      paper: 'letter',
      copies: 1,
    });
  });

  it('refuse a stock, format or number of copies the declaration does not allow', () => {
    const label = z.safeParse(labelPrintable('a', ['4x6']).options, {
      format: 'png',
      size: '2x1',
      copies: 1.5,
    });
    expect(label.error?.issues.map((issue) => [issue.path[0], issue.message])).toEqual([
      ['format', 'Choose the format: pdf or zpl.'],
      ['size', 'Choose the label size: 4x6.'],
      ['copies', 'The number of copies must be a whole number.'],
    ]);
    const sheet = z.safeParse(sheetPrintable('b').options, { format: 'zpl', paper: 'legal' });
    expect(sheet.error?.issues.map((issue) => issue.path[0])).toEqual(['format', 'paper']);
  });
});
