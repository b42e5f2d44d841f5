/*
 * Constants of the ISO 9660 reader: the fixed layout (ECMA-119) and the
 * bounds that keep a hostile image from costing unbounded time or memory.
 */

/** ECMA-119 §6.1.2: a logical sector is 2048 bytes; directory records never cross one (§6.8.1.1). */
export const SECTOR_BYTES = 2048;
/** ECMA-119 §6.2.1: the volume descriptor set starts at logical sector 16 (the System Area is 0-15). */
export const DESCRIPTOR_START_SECTOR = 16;
/** Volume descriptors (and ECMA-167 recognition descriptors) examined before giving up on a terminator. */
export const MAX_DESCRIPTORS = 64;

/** Directory depth a path may have (ECMA-119 allows 8; Rock Ridge relocation makes deeper trees appear). */
export const MAX_DEPTH = 64;
/** Bytes of one directory extent read and parsed (a directory with ~100 000 entries). */
export const MAX_DIRECTORY_BYTES = 8 * 1024 * 1024;
/** Entries of one directory (after multi-extent records are joined). */
export const MAX_DIRECTORY_ENTRIES = 100_000;
/** Parsed directories kept, counted in entries (least recently used first out). */
export const DIRECTORY_CACHE_ENTRIES = 200_000;
/** Extents of one multi-extent file (4 TiB at 4 GiB each). */
export const MAX_FILE_EXTENTS = 1024;

/** SUSP continuation areas (CE) followed for one directory record (SUSP 1.12 §5.1). */
export const MAX_CONTINUATIONS = 16;
/** Bytes of one continuation area (SUSP 1.12 §5.1 keeps it inside one logical block). */
export const MAX_CONTINUATION_BYTES = SECTOR_BYTES;
/** Characters of a Rock Ridge name (NM) or symlink target (SL) assembled from pieces. */
export const MAX_RR_NAME = 1024;
export const MAX_RR_TARGET = 4096;

/** El Torito: catalog sectors read and entries accepted. */
export const MAX_CATALOG_SECTORS = 4;
export const MAX_BOOT_ENTRIES = 64;

/** Largest single read() (a caller wanting more reads in pieces). */
export const MAX_READ_BYTES = 256 * 1024 * 1024;

/** The root directory's node id (no directory record can sit at byte 1). */
export const ROOT_NODE_ID = 1n;
/** Rock Ridge inode numbers (PX, RRIP 1.12) become node ids above this base, apart from byte positions. */
export const RR_INODE_ID_BASE = 1n << 56n;
