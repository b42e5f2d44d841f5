import type { EventData } from '@contracts/events';
import type { BootMethod, ImageOsFamily, ImageSource, OsImage } from '@contracts/os-images';

export const FAMILY_LABELS: Record<ImageOsFamily, string> = {
  debian: 'Debian',
  ubuntu: 'Ubuntu',
  rhel: 'RHEL family',
  fedora: 'Fedora',
  suse: 'SUSE',
  arch: 'Arch',
  alpine: 'Alpine',
  windows: 'Windows',
  rescue: 'Rescue',
  other: 'Other',
};

export const SOURCE_LABELS: Record<ImageSource, string> = { upload: 'Uploaded', import: 'Imported', drop_folder: 'Drop folder' };

export const BOOT_METHOD_LABELS: Record<BootMethod, string> = {
  linux: 'Kernel + initrd from the mounted ISO',
  windows: 'wimboot with the ISO\'s boot.wim',
  sanboot: 'iPXE sanboot of the whole ISO (BIOS)',
  none: 'Nothing bootable found',
};

/** "Debian GNU/Linux 12.5.0 · amd64", or null before detection. */
export function detectionSummary(image: Pick<OsImage, 'detection'>): string | null {
  const detection = image.detection;
  if (!detection) return null;
  const name = [detection.distro || FAMILY_LABELS[detection.family], detection.version].filter(Boolean).join(' ');
  return detection.arch ? `${name} · ${detection.arch}` : name;
}

/**
 * A browser's file name as the upload route accepts it (IMAGE_FILE_NAME_PATTERN):
 * other characters become "_", a leading non-alphanumeric is dropped, at most 200.
 */
export function safeImageFileName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9._+-]/g, '_').replace(/^[^A-Za-z0-9]+/, '').slice(0, 200);
  return cleaned === '' ? 'image.iso' : cleaned;
}

/** The URL other machines reach a served path at: on the server's first LAN address, else this page's origin. */
export function lanUrl(urls: readonly string[] | undefined, urlPath: string, origin: string): string {
  const base = (urls && urls.length > 0 ? urls[0] : origin) ?? origin;
  return `${base.replace(/\/$/, '')}${urlPath.startsWith('/') ? urlPath : `/${urlPath}`}`;
}

export interface ExtractProgress {
  files: number;
  bytes: number;
  totalBytes: number | null;
  percent: number;
}

const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/**
 * The running extraction of an image from the live events (newest first):
 * the latest os_image.extract.progress for it, unless an os_image.extracted
 * or os_image.failed for it came after; null when none runs.
 */
export function extractProgressOf(events: readonly EventData[], imageId: number): ExtractProgress | null {
  for (const event of events) {
    if (num(event.detail?.image_id) !== imageId) continue;
    if (event.kind === 'os_image.extracted' || event.kind === 'os_image.failed') return null;
    if (event.kind !== 'os_image.extract.progress') continue;
    const detail = event.detail ?? {};
    const totalBytes = num(detail.total_bytes);
    const bytes = num(detail.bytes) ?? 0;
    const percent = num(detail.percent) ?? (totalBytes ? Math.floor((bytes / totalBytes) * 100) : 0);
    if (percent >= 100) return null;
    return { files: num(detail.files) ?? 0, bytes, totalBytes, percent };
  }
  return null;
}

/**
 * Why the image's latest extraction failed, from the live events (newest
 * first): the os_image.failed of operation extract, unless an extraction
 * started or ended after it; null otherwise. The failure is an event only
 * (the 202 came before it), so without this the page would just stay "Not extracted".
 */
export function extractFailureOf(events: readonly EventData[], imageId: number): string | null {
  for (const event of events) {
    if (num(event.detail?.image_id) !== imageId) continue;
    if (event.kind === 'os_image.extracted' || event.kind === 'os_image.extract.progress') return null;
    if (event.kind === 'os_image.failed' && event.detail?.operation === 'extract') {
      const error = event.detail.error;
      return typeof error === 'string' && error !== '' ? error : event.message;
    }
  }
  return null;
}
