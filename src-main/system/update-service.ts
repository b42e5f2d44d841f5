import path from 'node:path';
import { AppError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { EventLog } from '../events/event-log.js';
import type { SettingsService } from '../settings/settings-service.js';
import { fetchUpdateFeed, isNewer, type UpdateFeed } from './update-feed.js';
import type { UpdateCheck, UpdateDownload } from './system-contract.js';
import { downloadVerified } from './verified-download.js';

/** Feed requests and download stalls give up after this long unless the core is told otherwise (tests). */
export const DEFAULT_UPDATE_TIMEOUT_MS = 10_000;
/** Larger than any installer; bounds a misbehaving server. */
export const MAX_UPDATE_BYTES = 4 * 1024 ** 3;
/** At most one progress event per this interval (events are stored). */
const PROGRESS_INTERVAL_MS = 1_000;

export type { UpdateCheck, UpdateDownload };

/**
 * Update checks and downloads against the feed at `general.update_feed_url`.
 * Installing is not its job: the desktop shell or the operator runs the
 * downloaded file.
 */
export class UpdateService {
  private readonly settings: SettingsService;
  private readonly events: EventLog;
  private readonly log: Logger;
  private readonly dir: string;
  private readonly currentVersion: string;
  private readonly timeoutMs: number;
  private downloading = false;

  constructor(deps: {
    settings: SettingsService;
    events: EventLog;
    log: Logger;
    dataDir: string;
    currentVersion: string;
    timeoutMs?: number;
  }) {
    this.settings = deps.settings;
    this.events = deps.events;
    this.log = deps.log.scope('update');
    this.dir = path.join(deps.dataDir, 'updates');
    this.currentVersion = deps.currentVersion;
    this.timeoutMs = deps.timeoutMs ?? DEFAULT_UPDATE_TIMEOUT_MS;
  }

  async check(): Promise<UpdateCheck> {
    const feed = await this.feed();
    return {
      current: this.currentVersion,
      latest: feed.version,
      update_available: isNewer(feed.version, this.currentVersion),
      url: feed.url,
      notes: feed.notes,
      published_at: feed.published_at,
    };
  }

  /** Downloads the feed's release into `<data-dir>/updates/`, verified against the feed's SHA-256. One at a time. */
  async download(): Promise<UpdateDownload> {
    if (this.downloading) throw new AppError('INVALID_STATE', 'an update download is already running');
    this.downloading = true;
    try {
      const feed = await this.feed();
      const file = path.join(this.dir, fileNameFor(feed));
      let lastProgress = 0;
      this.log.info(`downloading update ${feed.version}`);
      const result = await downloadVerified({
        url: feed.url,
        sha256: feed.sha256,
        file,
        timeoutMs: this.timeoutMs,
        maxBytes: MAX_UPDATE_BYTES,
        onProgress: ({ bytes, total }) => {
          const now = Date.now();
          if (now - lastProgress < PROGRESS_INTERVAL_MS) return;
          lastProgress = now;
          this.events.emit({
            kind: 'update.download.progress',
            message: `downloading update ${feed.version}: ${bytes} bytes${total !== null ? ` of ${total}` : ''}`,
            detail: { version: feed.version, bytes, total, percent: total ? Math.floor((bytes / total) * 100) : null },
          });
        },
      }).catch((err: unknown) => {
        this.log.warn(`update download failed: ${(err as Error).message}`);
        this.events.emit({ kind: 'update.download.failed', level: 'warn', message: `update download failed: ${(err as Error).message}`, detail: { version: feed.version } });
        throw err;
      });
      this.events.emit({
        kind: 'update.downloaded',
        message: `update ${feed.version} downloaded (${result.bytes} bytes, SHA-256 verified)`,
        detail: { version: feed.version, file: path.basename(result.file), bytes: result.bytes, sha256: result.sha256 },
      });
      return { ...result, version: feed.version };
    } finally {
      this.downloading = false;
    }
  }

  private feed(): Promise<UpdateFeed> {
    const url = this.settings.general().update_feed_url;
    if (url === null) {
      return Promise.reject(
        new AppError('INVALID_STATE', 'no update feed is configured: set general.update_feed_url (PUT /api/v1/settings/general)'),
      );
    }
    return fetchUpdateFeed(url, this.timeoutMs);
  }
}

/** The release file's own name when it is a plain file name, else bootwright-<version>. */
export function fileNameFor(feed: Pick<UpdateFeed, 'url' | 'version'>): string {
  const base = decodeURIComponentSafe(path.posix.basename(new URL(feed.url).pathname));
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/.test(base) && !base.endsWith('.part') ? base : `bootwright-${feed.version}`;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return '';
  }
}
