import { TreeError } from '../../core/read-only-tree.js';
import { NFS3 } from './nfs3-constants.js';

/*
 * How a tree's refusal (TreeError) or a file system error reads on the wire.
 * MOUNT uses the same numbers: mountstat3 shares them with nfsstat3 for
 * NOENT, IO, ACCES and NOTDIR.
 */

/** TreeError codes (and file system errors) as nfsstat3. */
export function treeStatus(error: unknown): number | null {
  if (error instanceof TreeError) {
    switch (error.code) {
      case 'NOT_FOUND':
        return NFS3.ERR_NOENT;
      case 'NOT_DIRECTORY':
        return NFS3.ERR_NOTDIR;
      case 'IS_DIRECTORY':
        return NFS3.ERR_ISDIR;
      case 'OUTSIDE':
      case 'LOOP':
        return NFS3.ERR_ACCES;
      case 'CORRUPT':
      case 'UNSUPPORTED':
        return NFS3.ERR_IO;
    }
  }
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (typeof code === 'string' && code.startsWith('E')) {
    if (code === 'ENOENT') return NFS3.ERR_NOENT;
    if (code === 'ENOTDIR') return NFS3.ERR_NOTDIR;
    if (code === 'EISDIR') return NFS3.ERR_ISDIR;
    if (code === 'EACCES' || code === 'EPERM' || code === 'ELOOP') return NFS3.ERR_ACCES;
    return NFS3.ERR_IO;
  }
  return null;
}
