import { inflateRawSync } from 'node:zlib';
import {
  UploadRefusal,
  WORKBOOK_ENTRIES_MAX,
  WORKBOOK_UNPACKED_MAX_BYTES,
  megabytes,
} from './upload-limits.js';

/**
 * The ZIP container of an XLSX workbook, read with node's zlib alone: what its central directory
 * declares is checked against the limits before anything is inflated, and each file is inflated
 * no further than its declared size, so a ZIP that lies about its sizes is caught too.
 */

/** A file inside a ZIP, as the central directory lists it. */
export type ZipEntry = {
  readonly name: string;
  readonly method: number;
  readonly packedSize: number;
  readonly size: number;
  readonly headerOffset: number;
};

/** The refusal of a workbook that is damaged or no workbook at all. */
export const UNREADABLE = 'The workbook cannot be read: save it again as .xlsx or .csv.';
const END_OF_DIRECTORY = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
/** A 32-bit field holding this has its value in the ZIP64 extra field. */
const IN_ZIP64 = 0xffffffff;
const ZIP64_EXTRA = 0x0001;
const STORED = 0;
const DEFLATED = 8;

/** The ZIP64 extra field's values: those of the 32-bit fields marked IN_ZIP64, in this order. */
function withZip64Sizes(
  extra: Buffer,
  fields: { size: number; packedSize: number; offset: number },
) {
  for (let at = 0; at + 4 <= extra.length; at += 4 + extra.readUInt16LE(at + 2)) {
    if (extra.readUInt16LE(at) !== ZIP64_EXTRA) continue;
    let next = at + 4;
    const read = (value: number) => {
      if (value !== IN_ZIP64) return value;
      next += 8;
      return Number(extra.readBigUInt64LE(next - 8));
    };
    return {
      size: read(fields.size),
      packedSize: read(fields.packedSize),
      offset: read(fields.offset),
    };
  }
  return fields;
}

/** The end record sits in the last 22 bytes, before a comment of at most 65,535. */
const END_SEARCHED = 22 + 0xffff;

function readDirectory(content: Buffer): ZipEntry[] {
  const tail = Math.max(0, content.length - END_SEARCHED);
  const found = content.subarray(tail).lastIndexOf(END_OF_DIRECTORY);
  if (found < 0) throw new UploadRefusal(UNREADABLE);
  const end = tail + found;
  const count = content.readUInt16LE(end + 10);
  if (count > WORKBOOK_ENTRIES_MAX) {
    throw new UploadRefusal(
      `The workbook is too large to read: it holds ${count} files inside and a workbook may hold at most ${WORKBOOK_ENTRIES_MAX}.`,
    );
  }
  const entries: ZipEntry[] = [];
  let at = content.readUInt32LE(end + 16);
  for (let i = 0; i < count; i += 1) {
    if (content.readUInt32LE(at) !== DIRECTORY_ENTRY) throw new UploadRefusal(UNREADABLE);
    const nameLength = content.readUInt16LE(at + 28);
    const extraLength = content.readUInt16LE(at + 30);
    const name = content.toString('utf8', at + 46, at + 46 + nameLength);
    const extra = content.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength);
    const { size, packedSize, offset } = withZip64Sizes(extra, {
      size: content.readUInt32LE(at + 24),
      packedSize: content.readUInt32LE(at + 20),
      offset: content.readUInt32LE(at + 42),
    });
    entries.push({
      name,
      method: content.readUInt16LE(at + 10),
      packedSize,
      size,
      headerOffset: offset,
    });
    at += 46 + nameLength + extraLength + content.readUInt16LE(at + 32);
  }
  return entries;
}

/**
 * The files a workbook's central directory lists; refused when it is no ZIP, holds too many files
 * or declares more than a workbook may unpack to. Cheap: nothing is inflated.
 */
export function workbookEntries(content: Buffer): ZipEntry[] {
  let entries: ZipEntry[];
  try {
    entries = readDirectory(content);
  } catch (error) {
    // A directory pointing outside the file: Buffer reads throw a RangeError.
    if (error instanceof RangeError) throw new UploadRefusal(UNREADABLE);
    throw error;
  }
  const unpacked = entries.reduce((sum, entry) => sum + entry.size, 0);
  if (unpacked > WORKBOOK_UNPACKED_MAX_BYTES) {
    throw new UploadRefusal(
      `The workbook is too large to read: it unpacks to ${megabytes(unpacked)} and an import may unpack to at most ${megabytes(WORKBOOK_UNPACKED_MAX_BYTES)}. Split it into smaller files.`,
    );
  }
  return entries;
}

const LYING =
  'The workbook is damaged: a file inside it unpacks to more than it declares. Save it again as .xlsx or .csv.';

/** One file of the ZIP, inflated no further than the size the directory declares for it. */
export function unpackEntry(content: Buffer, entry: ZipEntry): Buffer {
  const header = entry.headerOffset;
  if (header + 30 > content.length || content.readUInt32LE(header) !== LOCAL_HEADER) {
    throw new UploadRefusal(UNREADABLE);
  }
  const start = header + 30 + content.readUInt16LE(header + 26) + content.readUInt16LE(header + 28);
  const packed = content.subarray(start, start + entry.packedSize);
  if (packed.length !== entry.packedSize) throw new UploadRefusal(UNREADABLE);
  if (entry.method === STORED) {
    if (entry.packedSize !== entry.size) throw new UploadRefusal(LYING);
    return packed;
  }
  if (entry.method !== DEFLATED) throw new UploadRefusal(UNREADABLE);
  try {
    // zlib stops at maxOutputLength (at least 1) instead of inflating whatever the data holds.
    const data = inflateRawSync(packed, { maxOutputLength: Math.max(entry.size, 1) });
    if (data.length > entry.size) throw new UploadRefusal(LYING);
    return data;
  } catch (error) {
    if (error instanceof UploadRefusal) throw error;
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new UploadRefusal(LYING);
    }
    throw new UploadRefusal(UNREADABLE);
  }
}

/**
 * A ZIP of the given files, stored as they are (already checked and inflated), in the given
 * order, as chunks of a stream. Only the local headers are written: a streaming reader reads no
 * further, and it does not check the CRC, left 0.
 */
export function* storedZip(files: readonly { name: string; data: Buffer }[]): Generator<Buffer> {
  const chunk = 64 * 1024;
  for (const file of files) {
    const name = Buffer.from(file.name, 'utf8');
    const header = Buffer.alloc(30);
    header.writeUInt32LE(LOCAL_HEADER, 0);
    header.writeUInt16LE(20, 4); // version needed: 2.0
    header.writeUInt16LE(0x0800, 6); // names are UTF-8
    header.writeUInt16LE(STORED, 8);
    header.writeUInt32LE(file.data.length, 18);
    header.writeUInt32LE(file.data.length, 22);
    header.writeUInt16LE(name.length, 26);
    yield Buffer.concat([header, name]);
    // Small chunks: the reader copies what it buffers, and one chunk of 100 MB would be copied whole.
    for (let at = 0; at < file.data.length; at += chunk) yield file.data.subarray(at, at + chunk);
  }
  yield Buffer.concat([END_OF_DIRECTORY, Buffer.alloc(18)]);
}
