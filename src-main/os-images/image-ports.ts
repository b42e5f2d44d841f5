import type { ReadOnlyTree } from '../core/read-only-tree.js';
import type { Detection, ExtractMode, IsoInfo } from './os-images-contract.js';

/*
 * The seams between the parts of the os-images area, so each part is built
 * and tested on its own: the ISO reader (iso/), detection and extraction
 * (detect/, extract/) and serving the mounted content (mount/). The area's
 * service (os-image-service.ts) drives them through these types only.
 */

/** An opened image: its content as a tree, and what its volume descriptors say. */
export interface OpenedImage extends ReadOnlyTree {
  readonly info: IsoInfo;
}

/** Opens an image file with the ISO 9660 reader; AppError VALIDATION_FAILED (with the reason) when it is not a readable ISO. */
export type ImageOpener = (file: string) => Promise<OpenedImage>;

export interface CatalogMatch {
  distro: string;
  version: string;
  arch: string;
}

/** The netboot catalog entry for a detected OS, or null (the area builds it from the netboot catalog). */
export type CatalogLookup = (query: { family: string; distro: string; version: string; arch: string }) => CatalogMatch | null;

export interface DetectInput {
  tree: ReadOnlyTree;
  info: IsoInfo;
  /** The image's file name (a hint when the ISO's own files say little). */
  fileName: string;
  catalog: CatalogLookup;
}

/** Reads the ISO's own files (metadata and small config files only) and says what it is and how it boots. */
export type ImageDetector = (input: DetectInput) => Promise<Detection>;

export interface ExtractProgress {
  files: number;
  bytes: number;
  total_files: number;
  total_bytes: number;
}

export interface ExtractRequest {
  tree: ReadOnlyTree;
  detection: Detection | null;
  /** The absolute directory the files go to (inside the boot root); the extractor creates it, and refuses an existing one (CONFLICT) unless `overwrite`. */
  target: string;
  mode: ExtractMode;
  overwrite: boolean;
  signal: AbortSignal;
  onProgress: (progress: ExtractProgress) => void;
}

/** Copies the boot files (mode boot) or the whole tree (full) byte-exact into `target`. */
export type ImageExtractor = (request: ExtractRequest) => Promise<{
  files: number;
  bytes: number;
  /** Entries not written, with why (unsafe names, duplicates, symlinks leading out of the image). */
  skipped?: { path: string; reason: string }[];
}>;

export interface MountedImage {
  id: number;
  slug: string;
  /** The ISO file (served whole at /boot/iso/<slug>.iso for sanboot and ISO-in-RAM installers). */
  file: string;
  tree: ReadOnlyTree;
}

/** Serves mounted images' content over HTTP (/boot/iso/<slug>/…) and TFTP (iso/<slug>/…) straight from the ISO. */
export interface ImageMountPort {
  mount(image: MountedImage): void;
  unmount(id: number): void;
  /** Ids of the mounted images. */
  mounted(): number[];
}

/**
 * What "boot this ISO over NFS" learns from the NFS area (which registers it:
 * os-images cannot depend on nfs, nfs depends on os-images) about a mounted
 * image's automatic export.
 */
export interface ImageNfsExports {
  /**
   * The export path a mounted image has (`/iso/<slug>`), or why it has none
   * (automatic image exports are off); `notes`: what to know before machines
   * boot (the service stopped, no client allowed).
   */
  exportOf(slug: string): { path: string; notes: string[] } | { problem: string };
}

