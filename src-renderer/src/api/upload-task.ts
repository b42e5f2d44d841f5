import { describeError, isApiError } from './api-error.js';
import { toApiError } from './api-client.js';
import { API_PREFIX } from './transport.js';
import { UploadAborted, type UploadSender } from './upload-sender.js';

/**
 * uploading: bytes are going out; interrupted: the connection broke (Retry
 * resumes where the server stands, when the target is resumable); conflict:
 * the server has a file of that name (Retry with overwrite replaces it);
 * failed: the server refused (the message says why); done; cancelled.
 */
export type UploadPhase = 'uploading' | 'interrupted' | 'conflict' | 'failed' | 'done' | 'cancelled';

export interface UploadSnapshot {
  /** This window's key for the upload. */
  key: string;
  name: string;
  size: number;
  /** Bytes the server holds or has been sent (resumed bytes included). */
  sent: number;
  /** 0–100. */
  percent: number;
  /** Bytes per second over the last few seconds; null until measurable. */
  rate: number | null;
  phase: UploadPhase;
  error: string | null;
  /** The server's id of a resumable upload, once known. */
  uploadId: string | null;
  /** The server's `data` when done. */
  result: unknown;
}

/** Where a resumable upload stands on the server after a break. */
export interface UploadPosition {
  uploadId: string;
  received: number;
}

export interface UploadTaskOptions {
  key: string;
  file: Blob;
  /** The name shown (and sent, by `urlFor`). */
  name: string;
  sender: UploadSender;
  /** The request path (below /api/v1) for sending from `offset`. */
  urlFor(attempt: { offset: number; uploadId: string | null; overwrite: boolean }): string;
  /** Resumable targets: where the server stands (null: nothing kept, start over). */
  locate?(uploadId: string | null): Promise<UploadPosition | null>;
  /** Resumable targets: drop the server's partial file (Cancel). */
  discard?(uploadId: string): Promise<void>;
  /** Resumable targets: the id a fresh upload is sent under, chosen by the client (Cancel discards it even before an answer came). */
  uploadId?: string;
  /** Continue an upload the server already holds part of (a partial upload picked again). */
  resumeFrom?: UploadPosition;
  onChange(snapshot: UploadSnapshot): void;
  now?: () => number;
}

/** The window of progress samples the rate is measured over. */
const RATE_WINDOW_MS = 5000;

/**
 * One file upload as a small state machine around a raw-body POST: progress
 * with bytes, percent and rate; Cancel; after a network break, Retry asks
 * the server how much it kept (resumable targets) and sends the rest with
 * the upload id and offset; a 409 waits for an overwrite decision.
 */
export class UploadTask {
  private readonly options: UploadTaskOptions;
  private readonly now: () => number;
  private controller: AbortController | null = null;
  private samples: { at: number; sent: number }[] = [];
  private state: UploadSnapshot;
  private offset: number;

  constructor(options: UploadTaskOptions) {
    this.options = options;
    this.now = options.now ?? (() => Date.now());
    this.offset = options.resumeFrom?.received ?? 0;
    this.state = {
      key: options.key,
      name: options.name,
      size: options.file.size,
      sent: this.offset,
      percent: percentOf(this.offset, options.file.size),
      rate: null,
      phase: 'uploading',
      error: null,
      uploadId: options.resumeFrom?.uploadId ?? options.uploadId ?? null,
      result: null,
    };
  }

  get snapshot(): UploadSnapshot {
    return this.state;
  }

  /** Sends the file (from the resume point, when given). */
  start(): Promise<void> {
    return this.send(false);
  }

  /** After a break: resumes where the server stands (or starts over). After a conflict: `overwrite` replaces the file. */
  async retry(options: { overwrite?: boolean } = {}): Promise<void> {
    if (this.state.phase === 'uploading' || this.state.phase === 'done') return;
    if (this.options.locate) {
      // Whatever broke, the server's partial file (if it kept one) is where to go on from.
      this.update({ phase: 'uploading', error: null });
      let position: UploadPosition | null;
      try {
        position = await this.options.locate(this.state.uploadId);
      } catch (error) {
        this.update({ phase: 'interrupted', error: describeError(error) });
        return;
      }
      this.offset = position ? position.received : 0;
      this.update({ uploadId: position?.uploadId ?? null, sent: this.offset, percent: percentOf(this.offset, this.state.size) });
    } else {
      this.offset = 0;
    }
    return this.send(options.overwrite ?? false);
  }

  /** Stops sending and removes what the server kept of it. */
  async cancel(): Promise<void> {
    if (this.state.phase === 'done' || this.state.phase === 'cancelled') return;
    const wasSending = this.state.phase === 'uploading';
    this.controller?.abort();
    this.update({ phase: 'cancelled', rate: null, error: null });
    if (!this.options.discard) return;
    try {
      // The id comes with the answer; a request cut short never got one, so ask the server which partial it kept.
      const uploadId = this.state.uploadId ?? (wasSending && this.options.locate ? (await this.options.locate(null))?.uploadId : undefined);
      if (uploadId) await this.options.discard(uploadId);
    } catch {
      // Nothing was kept, or it is gone already: the server also removes partials idle for a day.
    }
  }

  private async send(overwrite: boolean): Promise<void> {
    const controller = new AbortController();
    this.controller = controller;
    const base = this.offset;
    this.samples = [{ at: this.now(), sent: base }];
    this.update({ phase: 'uploading', error: null, rate: null });
    const url = `${API_PREFIX}${this.options.urlFor({ offset: base, uploadId: this.state.uploadId, overwrite })}`;
    try {
      const response = await this.options.sender(
        {
          url,
          body: base > 0 ? this.options.file.slice(base) : this.options.file,
          onProgress: (sent) => this.progress(base + sent),
          onHeaders: (header) => this.noteUploadId(header('upload-id')),
        },
        controller.signal,
      );
      if (controller.signal.aborted) return;
      this.noteUploadId(response.header('upload-id'));
      if (response.status >= 200 && response.status < 300) {
        const data = typeof response.body === 'object' && response.body !== null ? (response.body as { data?: unknown }).data : null;
        this.update({ phase: 'done', sent: this.state.size, percent: 100, rate: null, result: data ?? null });
        return;
      }
      const error = toApiError({ status: response.status, body: response.body }, 'POST', url.slice(API_PREFIX.length));
      // A 409 on a fresh upload: the name is taken (a resumed one's 409 says the partial file holds another count: Retry asks again).
      this.update({ phase: error.status === 409 && !overwrite && base === 0 ? 'conflict' : 'failed', error: error.message, rate: null });
    } catch (error) {
      if (error instanceof UploadAborted || controller.signal.aborted) return;
      const network = isApiError(error) && error.code === 'NETWORK_ERROR';
      this.update({ phase: network ? 'interrupted' : 'failed', error: describeError(error), rate: null });
    }
  }

  private noteUploadId(value: string | null): void {
    if (value && value !== this.state.uploadId) this.update({ uploadId: value });
  }

  private progress(sent: number): void {
    const at = this.now();
    this.samples.push({ at, sent });
    while (this.samples.length > 2 && at - (this.samples[0]?.at ?? at) > RATE_WINDOW_MS) this.samples.shift();
    const first = this.samples[0];
    const elapsed = first ? at - first.at : 0;
    const rate = first && elapsed > 0 ? ((sent - first.sent) * 1000) / elapsed : null;
    this.update({ sent, percent: percentOf(sent, this.state.size), rate });
  }

  private update(changes: Partial<UploadSnapshot>): void {
    this.state = { ...this.state, ...changes };
    this.options.onChange(this.state);
  }
}

function percentOf(sent: number, size: number): number {
  if (size <= 0) return 0;
  return Math.min(100, Math.floor((sent / size) * 100));
}
