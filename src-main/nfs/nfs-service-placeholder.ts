import type { ManagedService } from '../services/service-manager.js';
import type { NfsStatus } from './nfs-contract.js';

/*
 * A stand-in for the NFS server until server/nfs-service.ts (RpcServer + the
 * MOUNT/NFS/portmapper programs) lands: it registers the managed service
 * 'nfs' so the settings, auto-start flag and lifecycle routes work, and
 * serves nothing. index.ts builds the real one in one line (see
 * `createNfsService` there).
 */

/** What the area reads from the server for GET /services/nfs/status (the real service implements it too). */
export interface NfsServerView {
  listenAddresses(): string[];
  /** How clients find our ports right now. */
  portmapperState(): NfsStatus['portmapper'];
}

export class NfsService implements ManagedService, NfsServerView {
  readonly name = 'nfs';
  readonly description = 'NFS v3 server (read-only)';
  readonly defaultAutoStart = false;

  async start(): Promise<void> {}

  async stop(): Promise<void> {}

  listenAddresses(): string[] {
    return [];
  }

  portmapperState(): NfsStatus['portmapper'] {
    return { mode: 'none', detail: 'the NFS server is not built into this version yet' };
  }
}
