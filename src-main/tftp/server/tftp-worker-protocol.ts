import type { FileStretch } from '../../boot-files/virtual-files.js';
import type { TftpClient, TftpLogLevel, TftpServerConfig, TftpServerEvent } from './tftp-server.js';

/**
 * Messages between the TFTP service (main thread) and the server in its
 * worker thread. Commands and virtual-file lookups are requests with an id
 * answered by a `reply` carrying the same id.
 */

export type MainToWorker =
  | { type: 'start'; id: number; config: TftpServerConfig; virtualFiles: boolean }
  | { type: 'rebind'; id: number; addresses: string[] }
  | { type: 'stop'; id: number }
  | { type: 'reply'; id: number; ok: true; value: WireVirtualFile | null }
  | { type: 'reply'; id: number; ok: false; error: string };

export type WorkerToMain =
  | { type: 'ready' }
  | { type: 'reply'; id: number; ok: true; value: string[] }
  | { type: 'reply'; id: number; ok: false; error: string }
  | { type: 'virtual'; id: number; path: string; client: TftpClient }
  /** The transfer of a leased disk file ended: the main thread calls the provider's release. */
  | { type: 'released'; lease: number; bytes: number }
  | { type: 'event'; event: TftpServerEvent }
  | { type: 'log'; level: TftpLogLevel; message: string };

/**
 * A virtual file as it crosses threads: bytes (a Buffer arrives as a plain
 * Uint8Array), or a file on disk by path, with the number of its hold in the
 * main thread when the provider wants to hear when the transfer ends.
 */
export type WireVirtualFile =
  | { kind: 'content'; content: Uint8Array; contentType: string }
  /** `stretches`: where the bytes lie in `path` (a file inside a mounted ISO), null for the whole file. */
  | { kind: 'file'; path: string; size: number; stretches: FileStretch[] | null; lease: number | null };
