import { mkdir, stat } from 'node:fs/promises';
import { normalizeBootPath, resolveInsideRoot, type RefusalReason } from './path-confinement.js';
import { isDiskFile, stretchesFit, stretchesOf, stretchesSize, VirtualFileRegistry, type BootClient, type FileStretch, type VirtualFileProvider } from './virtual-files.js';

/**
 * Whether a path a profile or script names would be served, without serving
 * it: a file under the boot root, a provider's file (generated, or fetched
 * when a machine asks), missing, or refused (outside the root, a bad path).
 */
export type BootFilePresence = 'file' | 'virtual' | 'missing' | 'refused';

/** The served-root policy's answer for a root (ServedRoots.check). */
export type RootVerdict = { ok: true; real: string } | { ok: false; problem: string };

/** What a client's request for a boot file resolves to. */
export type BootFileLookup =
  | { kind: 'virtual'; path: string; content: Buffer; contentType: string }
  /**
   * A file under the root, or a provider's file on disk (then `release` ends its hold: call it once).
   * `stretches`: where the served bytes lie in `absolute` (a file inside a mounted ISO), null for the whole file.
   */
  | { kind: 'disk'; path: string; absolute: string; size: number; mtime: Date; stretches: FileStretch[] | null; release?: (bytesSent: number) => void }
  | { kind: 'refused'; reason: RefusalReason; message: string };

/**
 * The boot root (`<data-dir>/boot`, served over HTTP at /boot/ and the TFTP
 * root by default) and the virtual files served next to it. Both servers ask
 * this one place, so confinement and virtual files behave the same on both.
 */
export class BootFiles {
  readonly root: string;
  private readonly virtual = new VirtualFileRegistry();
  private readonly checkRoot: ((root: string) => Promise<RootVerdict>) | null;
  /** The served-root policy's verdict on `root`, taken once (and again after ensureRoot); files are served from its real path. */
  private verdict: Promise<RootVerdict> | null = null;

  /** `checkRoot` is the served-root policy (ServedRoots.check); without it the root is served unchecked (unit tests). */
  constructor(options: { root: string; checkRoot?: (root: string) => Promise<RootVerdict> }) {
    this.root = options.root;
    this.checkRoot = options.checkRoot ?? null;
  }

  /**
   * Creates the boot root when missing and has the policy check it afresh.
   * A refused root is reported, not thrown: HTTP boot then refuses every
   * disk file while the API stays up for an admin to repair it.
   */
  async ensureRoot(): Promise<RootVerdict> {
    await mkdir(this.root, { recursive: true });
    this.verdict = null;
    return this.rootVerdict();
  }

  private rootVerdict(): Promise<RootVerdict> {
    this.verdict ??= this.checkRoot ? this.checkRoot(this.root) : Promise.resolve({ ok: true as const, real: this.root });
    return this.verdict;
  }

  /** Registers a generator of per-client files (consulted before the disk); returns the function that removes it. */
  addVirtualProvider(provider: VirtualFileProvider): () => void {
    return this.virtual.add(provider);
  }

  hasVirtualProviders(): boolean {
    return this.virtual.size() > 0;
  }

  /** A virtual file for an already normalised path, or null. Provider errors propagate. */
  resolveVirtual(relative: string, client: BootClient) {
    return this.virtual.resolve(relative, client);
  }

  /** Where `requested` would come from (BootFilePresence); reads nothing but the file's metadata, calls no provider's resolve. */
  async presence(requested: string): Promise<BootFilePresence> {
    const normalized = normalizeBootPath(requested);
    if (!normalized.ok) return 'refused';
    if (this.virtual.owns(normalized.path)) return 'virtual';
    const verdict = await this.rootVerdict();
    // No boot root yet (before the first start made it): nothing is in it. A root the policy refuses serves nothing.
    if (!verdict.ok) return (await stat(this.root).catch(() => null)) ? 'refused' : 'missing';
    const confined = await resolveInsideRoot(verdict.real, normalized.path, { pinned: this.checkRoot !== null });
    if (!confined.ok) return confined.reason === 'not-found' ? 'missing' : 'refused';
    const info = await stat(confined.absolute).catch(() => null);
    return info?.isFile() ? 'file' : 'missing';
  }

  /**
   * Resolves a client's path: confinement first (refused paths never reach a
   * provider), then the virtual providers, then a regular file under `root`
   * (default: the boot root).
   */
  async lookup(requested: string, client: BootClient, root: string = this.root): Promise<BootFileLookup> {
    const normalized = normalizeBootPath(requested);
    if (!normalized.ok) return { kind: 'refused', reason: normalized.reason, message: normalized.message };
    const generated = await this.virtual.resolve(normalized.path, client);
    if (generated && isDiskFile(generated)) {
      const info = await stat(generated.path).catch(() => null);
      const stretches = stretchesOf(generated);
      // Stretches past the backing file's end (an ISO replaced under a mount) are not served.
      if (!info || !info.isFile() || (stretches && !stretchesFit(stretches, info.size))) {
        generated.release?.(0);
        return { kind: 'refused', reason: 'not-found', message: 'file not found' };
      }
      const size = stretches ? stretchesSize(stretches) : info.size;
      return { kind: 'disk', path: normalized.path, absolute: generated.path, size, mtime: info.mtime, stretches, ...(generated.release ? { release: generated.release } : {}) };
    }
    if (generated) return { kind: 'virtual', path: normalized.path, content: generated.content, contentType: generated.contentType };
    let confined;
    if (root === this.root) {
      // The boot root is served only as the real path the policy accepted, pinned against later symlink swaps.
      const verdict = await this.rootVerdict();
      if (!verdict.ok) return { kind: 'refused', reason: 'forbidden', message: `boot root refused: ${verdict.problem}` };
      confined = await resolveInsideRoot(verdict.real, normalized.path, { pinned: this.checkRoot !== null });
    } else {
      confined = await resolveInsideRoot(root, normalized.path);
    }
    if (!confined.ok) return { kind: 'refused', reason: confined.reason, message: confined.message };
    const info = await stat(confined.absolute).catch(() => null);
    if (!info || !info.isFile()) return { kind: 'refused', reason: 'not-found', message: 'file not found' };
    return { kind: 'disk', path: normalized.path, absolute: confined.absolute, size: info.size, mtime: info.mtime, stretches: null };
  }
}
