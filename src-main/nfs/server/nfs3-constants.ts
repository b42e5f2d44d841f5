/*
 * NFS version 3 and MOUNT version 3 numbers (RFC 1813): procedures, status
 * codes, file types, ACCESS bits and FSINFO property bits. Data, read by the
 * codec and the programs; nothing here decides anything.
 */

export const MOUNT_PROGRAM = 100005;
export const MOUNT_VERSION = 3;
export const NFS_PROGRAM = 100003;
export const NFS_VERSION = 3;

/** RFC 1813 §3.3: the NFS v3 procedures. */
export const NFSPROC3 = {
  NULL: 0,
  GETATTR: 1,
  SETATTR: 2,
  LOOKUP: 3,
  ACCESS: 4,
  READLINK: 5,
  READ: 6,
  WRITE: 7,
  CREATE: 8,
  MKDIR: 9,
  SYMLINK: 10,
  MKNOD: 11,
  REMOVE: 12,
  RMDIR: 13,
  RENAME: 14,
  LINK: 15,
  READDIR: 16,
  READDIRPLUS: 17,
  FSSTAT: 18,
  FSINFO: 19,
  PATHCONF: 20,
  COMMIT: 21,
} as const;

/** Procedure number → name (logs and metrics labels). */
export const NFSPROC3_NAMES: ReadonlyMap<number, string> = new Map(Object.entries(NFSPROC3).map(([name, value]) => [value, name.toLowerCase()]));

/** RFC 1813 §5.0: the MOUNT v3 procedures. */
export const MOUNTPROC3 = {
  NULL: 0,
  MNT: 1,
  DUMP: 2,
  UMNT: 3,
  UMNTALL: 4,
  EXPORT: 5,
} as const;

/** Procedure number → name (logs and metrics labels). */
export const MOUNTPROC3_NAMES: ReadonlyMap<number, string> = new Map(Object.entries(MOUNTPROC3).map(([name, value]) => [value, name.toLowerCase()]));

/** RFC 1813 §2.6: nfsstat3 (only those this read-only server answers, plus a few for completeness). */
export const NFS3 = {
  OK: 0,
  ERR_PERM: 1,
  ERR_NOENT: 2,
  ERR_IO: 5,
  ERR_NXIO: 6,
  ERR_ACCES: 13,
  ERR_EXIST: 17,
  ERR_NOTDIR: 20,
  ERR_ISDIR: 21,
  ERR_INVAL: 22,
  ERR_FBIG: 27,
  ERR_ROFS: 30,
  ERR_NAMETOOLONG: 63,
  ERR_STALE: 70,
  ERR_BADHANDLE: 10001,
  ERR_BAD_COOKIE: 10003,
  ERR_NOTSUPP: 10004,
  ERR_TOOSMALL: 10005,
  ERR_SERVERFAULT: 10006,
} as const;

/** RFC 1813 §5.1: mountstat3. */
export const MNT3 = {
  OK: 0,
  ERR_PERM: 1,
  ERR_NOENT: 2,
  ERR_IO: 5,
  ERR_ACCES: 13,
  ERR_NOTDIR: 20,
  ERR_INVAL: 22,
  ERR_NAMETOOLONG: 63,
  ERR_NOTSUPP: 10004,
  ERR_SERVERFAULT: 10006,
} as const;

/** RFC 1813 §2.3.5: ftype3. */
export const NF3 = {
  REG: 1,
  DIR: 2,
  BLK: 3,
  CHR: 4,
  LNK: 5,
  SOCK: 6,
  FIFO: 7,
} as const;

/** RFC 1813 §3.3.4: ACCESS bits. */
export const ACCESS3 = {
  READ: 0x01,
  LOOKUP: 0x02,
  MODIFY: 0x04,
  EXTEND: 0x08,
  DELETE: 0x10,
  EXECUTE: 0x20,
} as const;

/** RFC 1813 §3.3.19: FSINFO properties. */
export const FSF3 = {
  LINK: 0x01,
  SYMLINK: 0x02,
  HOMOGENEOUS: 0x08,
  CANSETTIME: 0x10,
} as const;

/** RFC 1813 §2.4/§2.5 limits. */
export const NFS3_FHSIZE = 64;
export const NFS3_COOKIEVERFSIZE = 8;
/** MOUNT v3 §5.1: MNTPATHLEN and MNTNAMLEN. */
export const MNTPATHLEN = 1024;
export const MNTNAMLEN = 255;
/** The longest name a LOOKUP may carry before NFS3ERR_NAMETOOLONG (PATHCONF name_max). */
export const NAME_MAX = 255;
/** The longest filename3/nfspath3 the decoder reads at all (beyond: GARBAGE_ARGS). */
export const MAX_NAME_BYTES = 4096;

/** FSINFO (ISSUE15 decisions): rtmax/rtpref 1 MiB over TCP, 32 KiB over UDP (a UDP reply must fit 65,507 bytes). */
export const READ_MAX_TCP = 1024 * 1024;
export const READ_MAX_UDP = 32 * 1024;
export const DIR_PREF = 64 * 1024;
/** The largest READDIR/READDIRPLUS reply we build whatever the client asks (a client's count is a maximum). */
export const DIR_REPLY_MAX_TCP = 1024 * 1024;
export const DIR_REPLY_MAX_UDP = 32 * 1024;

/** RFC 1813 §5.2.1: auth flavors MNT offers (AUTH_SYS, AUTH_NONE). */
export const MOUNT_AUTH_FLAVORS = [1, 0] as const;
