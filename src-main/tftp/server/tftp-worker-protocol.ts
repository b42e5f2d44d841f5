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
  | { type: 'event'; event: TftpServerEvent }
  | { type: 'log'; level: TftpLogLevel; message: string };

/** A virtual file as it crosses threads (a Buffer arrives as a plain Uint8Array). */
export interface WireVirtualFile {
  content: Uint8Array;
  contentType: string;
}
