import { errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { ManagedService } from '../../services/service-manager.js';
import type { NfsStatus } from '../nfs-contract.js';
import type { ExportTable, NfsActivity } from '../export-table.js';
import { HandleIndex } from './handle-index.js';
import { MOUNT_V1, MountProgram } from './mount-program.js';
import { Nfs3Program } from './nfs3-program.js';
import { createPortmapProgram, type PortMapping } from './portmap-program.js';
import { IPPROTO, PMAP_PORT, PMAP_VERSION, PROGRAM } from './rpc-constants.js';
import type { RpcCallObserver } from './rpc-program.js';
import { RpcServer } from './rpc-server.js';
import { ReadCache } from './read-cache.js';
import { registerMappings, rpcbindAnswers, unregisterMappings, type RpcbindClientOptions } from './rpcbind-client.js';

/*
 * The managed service 'nfs' (docs/nfs.md): RPC servers for NFS v3 + MOUNT v3
 * on nfs_port, MOUNT v3 on mount_port, and the portmapper question — our own
 * on port 111, the system's rpcbind that already owns it, or none — answered
 * at every start and shown in the status.
 */

export const NFS_VERSION = 3;
export const MOUNT_VERSION = 3;

/** What the service reads at each start (the area's NfsSettings satisfies it). */
export interface NfsServiceSettings {
  get(): { nfs_port: number; mount_port: number; portmapper: 'auto' | 'own' | 'rpcbind' | 'off'; udp: boolean };
  handleKey(): Buffer;
}

/** The export table with its change notification (the area's NfsExports). */
export interface NfsServiceExports extends ExportTable {
  onRebuilt(listener: () => void): () => void;
}

export interface NfsServiceDeps {
  settings: NfsServiceSettings;
  exports: NfsServiceExports;
  activity: NfsActivity & { observeCall: RpcCallObserver; reset(): void };
  log: Logger;
  /** Bind address of every listener (default 0.0.0.0). */
  host?: string;
  /** Where the system's portmapper is looked for (tests point it elsewhere). */
  rpcbind?: RpcbindClientOptions;
  /** The portmapper port (tests bind another; clients always ask 111). */
  portmapPort?: number;
}

type PortmapperState = NfsStatus['portmapper'];

/** What the area reads from the server for GET /services/nfs/status. */
export interface NfsServerView {
  listenAddresses(): string[];
  /** How clients find our ports right now. */
  portmapperState(): PortmapperState;
}

function bindCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code;
}

export class NfsService implements ManagedService, NfsServerView {
  readonly name = 'nfs';
  readonly description = 'NFS v3 server (read-only)';
  readonly defaultAutoStart = false;
  private servers: RpcServer[] = [];
  private readCache: ReadCache | null = null;
  private registered: PortMapping[] = [];
  private unsubscribe: (() => void) | null = null;
  private portmapper: PortmapperState = { mode: 'none', detail: 'not running' };
  private readonly log: Logger;

  constructor(private readonly deps: NfsServiceDeps) {
    this.log = deps.log.scope('nfs');
  }

  async start(): Promise<void> {
    const settings = this.deps.settings.get();
    const host = this.deps.host ?? '0.0.0.0';
    const { exports, activity } = this.deps;
    activity.reset();
    const index = new HandleIndex({ key: this.deps.settings.handleKey(), exports });
    const readCache = new ReadCache();
    this.readCache = readCache;
    const nfs = new Nfs3Program({ exports, activity, index, readCache });
    const mount = new MountProgram({ exports, activity, index });
    this.unsubscribe = exports.onRebuilt(() => nfs.exportsChanged());
    const common = { host, udp: settings.udp, logger: this.log, observer: activity.observeCall };
    // MOUNT is served on the NFS port too: a client told only port= finds both there.
    await this.listen(new RpcServer({ ...common, programs: [nfs, mount], port: settings.nfs_port }));
    if (settings.mount_port !== settings.nfs_port) await this.listen(new RpcServer({ ...common, programs: [mount], port: settings.mount_port }));

    const protocols = settings.udp ? [IPPROTO.TCP, IPPROTO.UDP] : [IPPROTO.TCP];
    const ours: PortMapping[] = protocols.flatMap((protocol) => [
      { program: PROGRAM.NFS, version: NFS_VERSION, protocol, port: settings.nfs_port },
      { program: PROGRAM.MOUNT, version: MOUNT_VERSION, protocol, port: settings.mount_port },
      // showmount asks for MOUNT v1 (EXPORT and DUMP only; mount-program.ts).
      { program: PROGRAM.MOUNT, version: MOUNT_V1, protocol, port: settings.mount_port },
    ]);
    this.portmapper = await this.startPortmapper(settings.portmapper, ours, host);
    this.log.info(`NFS serving ${exports.list().length} export(s); ${this.portmapper.detail}`);
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.registered.length > 0) {
      const mappings = this.registered;
      this.registered = [];
      await unregisterMappings(mappings, this.deps.rpcbind).catch((error: unknown) => this.log.warn(`rpcbind unregistration failed: ${errorMessage(error)}`));
    }
    const servers = this.servers;
    this.servers = [];
    await Promise.all(servers.map((server) => server.close().catch(() => undefined)));
    await this.readCache?.close();
    this.readCache = null;
    this.portmapper = { mode: 'none', detail: 'not running' };
  }

  listenAddresses(): string[] {
    return this.servers.flatMap((server) => {
      const { tcp, udp } = server.addresses();
      return [`tcp ${tcp.address}:${tcp.port}`, ...(udp ? [`udp ${udp.address}:${udp.port}`] : [])];
    });
  }

  notice(): string | null {
    return this.servers.length > 0 && this.portmapper.mode === 'none' ? this.portmapper.detail : null;
  }

  portmapperState(): PortmapperState {
    return this.portmapper;
  }

  private async listen(server: RpcServer): Promise<void> {
    await server.listen();
    this.servers.push(server);
  }

  /**
   * `own`: our portmapper on 111 (a failure fails the start). `rpcbind`:
   * register with the system's (a failure fails the start). `auto`: ours,
   * unless 111 is taken or not ours to bind — then the rpcbind that answers
   * there, or none (clients must be told port= and mountport=; the service
   * notice says so rather than failing the start).
   */
  private async startPortmapper(mode: 'auto' | 'own' | 'rpcbind' | 'off', ours: PortMapping[], host: string): Promise<PortmapperState> {
    if (mode === 'off') return { mode: 'none', detail: 'portmapper off: clients must mount with port= and mountport=' };
    const port = this.deps.portmapPort ?? PMAP_PORT;
    if (mode === 'own' || mode === 'auto') {
      const self: PortMapping[] = [IPPROTO.TCP, IPPROTO.UDP].map((protocol) => ({ program: PROGRAM.PORTMAP, version: PMAP_VERSION, protocol, port }));
      const server = new RpcServer({ host, port, udp: true, logger: this.log, programs: [createPortmapProgram([...self, ...ours])] });
      try {
        await this.listen(server);
        return { mode: 'own', detail: `our portmapper on tcp/udp ${host}:${port}` };
      } catch (error) {
        if (mode === 'own') throw new Error(`the portmapper cannot listen on port ${port}: ${errorMessage(error)}`);
        const code = bindCode(error);
        if (code !== 'EADDRINUSE' && code !== 'EACCES') throw error;
      }
    }
    const rpcbind = this.deps.rpcbind ?? {};
    if (!(await rpcbindAnswers(rpcbind))) {
      if (mode === 'rpcbind') throw new Error(`no rpcbind answers on ${rpcbind.host ?? '127.0.0.1'}:${rpcbind.port ?? PMAP_PORT}`);
      return { mode: 'none', detail: `port ${port} is taken or not ours to bind, and no rpcbind answers there: clients must mount with port= and mountport=` };
    }
    await registerMappings(ours, rpcbind);
    this.registered = ours;
    return { mode: 'rpcbind', detail: `registered with the system's rpcbind (it owns port ${rpcbind.port ?? PMAP_PORT})` };
  }
}
