/**
 * Virtual files: content generated per request (the iPXE entry script, per-host
 * scripts) served next to real files by TFTP and HTTP. Providers are consulted
 * before the disk; the first non-null answer wins. Content is never cached
 * across clients: every request calls the providers again.
 */

/** Who is asking, so a provider can tailor its answer. */
export interface BootClient {
  /** The client's address (IPv4 dotted or IPv6, without an IPv4-mapped prefix). */
  ip: string;
  protocol: 'tftp' | 'http';
  /** HTTP query parameters; empty for TFTP. */
  query: URLSearchParams;
}

export interface VirtualFile {
  content: Buffer;
  contentType: string;
}

export interface VirtualFileProvider {
  /**
   * `path` is the normalised path relative to the boot root, with forward
   * slashes and no leading slash (e.g. `ipxe/entry.ipxe`). Return null when the
   * path is not this provider's.
   */
  resolve(path: string, client: BootClient): Promise<VirtualFile | null>;
}

/** The ordered set of providers; `add` returns the function that removes it again. */
export class VirtualFileRegistry {
  private readonly providers: VirtualFileProvider[] = [];

  add(provider: VirtualFileProvider): () => void {
    this.providers.push(provider);
    return () => {
      const index = this.providers.indexOf(provider);
      if (index >= 0) this.providers.splice(index, 1);
    };
  }

  size(): number {
    return this.providers.length;
  }

  /** The first provider's answer for `path`, or null when none claims it. */
  async resolve(path: string, client: BootClient): Promise<VirtualFile | null> {
    for (const provider of [...this.providers]) {
      const file = await provider.resolve(path, client);
      if (file) return file;
    }
    return null;
  }
}
