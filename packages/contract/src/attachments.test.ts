import { describe, expect, it } from 'vitest';
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_RULE,
  attachmentFileProblem,
  attachmentTypeNamed,
} from './attachments.js';

describe('the rule a file is checked by before it is sent', () => {
  it('is said in words', () => {
    expect(ATTACHMENT_RULE).toBe('PDF, PNG, JPEG or WebP, up to 10 MB.');
  });

  it('knows a type by the extension, whatever its case', () => {
    expect(attachmentTypeNamed('Scan.JPEG')?.contentType).toBe('image/jpeg');
    expect(attachmentTypeNamed('invoice.pdf')?.contentType).toBe('application/pdf');
    expect(attachmentTypeNamed('invoice.pdf.exe')).toBeUndefined();
    expect(attachmentTypeNamed('pdf')).toBeUndefined();
  });

  it('takes a file of the limit exactly, not a byte more, and no empty one', () => {
    expect(attachmentFileProblem('a.pdf', ATTACHMENT_MAX_BYTES)).toBeNull();
    expect(attachmentFileProblem('a.pdf', ATTACHMENT_MAX_BYTES + 1)).toBe(
      'The file is larger than 10 MB: attach a smaller copy.',
    );
    expect(attachmentFileProblem('a.pdf', 0)).toBe('The file is empty.');
    expect(attachmentFileProblem('a.svg', 10)).toBe(
      'Attach a PDF, PNG, JPEG or WebP file (.pdf, .png, .jpg, .jpeg, .webp).',
    );
  });
});
