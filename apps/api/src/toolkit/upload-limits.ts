/**
 * The limits an uploaded import file is read under, so that no file (a ZIP bomb, a sheet of a
 * million rows, a cell of megabytes) can hold the server's memory or time, and at the end those of
 * attachments sent and received. The row limit is the
 * contract's IMPORT_MAX_ROWS. This module is loaded by the reading worker too, so it imports
 * nothing of the server's.
 */

/**
 * The most a workbook may unpack to. A full manifest, 200,000 rows of its 14 columns, unpacks to
 * about 125 MB as Excel or exceljs write it (about 45 bytes of XML a cell); this leaves half as
 * much again for longer names and notes, and refuses a bomb before anything is inflated.
 */
export const WORKBOOK_UNPACKED_MAX_BYTES = 192 * 1024 * 1024;

/** The most files a workbook's ZIP may hold: a workbook of a few sheets holds a dozen or two. */
export const WORKBOOK_ENTRIES_MAX = 10_000;

/**
 * The longest cell, in characters. The longest field an import reads is an accessory's
 * compatible models: 500 names of up to 200 characters and their separators, 100,499 characters.
 */
export const CELL_MAX_CHARS = 128 * 1024;

/**
 * The most text all the cells of a file may hold together, as many characters as a workbook may
 * unpack to in bytes: a full manifest holds far less (its XML is mostly markup).
 */
export const ROWS_MAX_CHARS = WORKBOOK_UNPACKED_MAX_BYTES;

/** A file still being read after this is refused; a full 200,000-row workbook takes about 7 s. */
export const READ_DEADLINE_MS = 60_000;

/**
 * The heap one reading worker may use. Reading a full 200,000-row workbook keeps about 300 MB
 * alive (its rows and shared strings); the unpacked XML lies outside the heap, bounded above.
 */
export const READER_HEAP_MB = 1024;

/** At most this many files are read at once, so that their memory adds up to a known bound. */
export const READERS_AT_ONCE = 2;

/** At most this many files wait for a reader, each holding its upload (up to 50 MB) meanwhile. */
export const READERS_WAITING_MAX = 4;

/** A file refused by a limit or as unreadable; its message is what the user is told. */
export class UploadRefusal extends Error {}

/** Megabytes, as a refusal states a size. */
export const megabytes = (bytes: number) => `${Math.ceil(bytes / (1024 * 1024))} MB`;

/**
 * At most this many attachments are sent or received at once, each holding its file (up to 10 MiB,
 * and a base64 copy of it on PGlite) while it is checked and stored or read and sent.
 */
export const ATTACHMENT_FILES_AT_ONCE = 4;

/** At most this many attachments wait for their turn, each holding its upload meanwhile. */
export const ATTACHMENT_FILES_WAITING_MAX = 8;
