import type { KitExport, KitImport, KitImportResult, KitSection } from './kit-contract.js';
import { exportKit, type ExportedKit, type JoinTarget } from './kit-exporter.js';
import type { KitImporter } from './kit-importer.js';

/** What the routes (and IPC) call: export and import (docs/kit.md). */
export class KitService {
  private readonly deps: { targets: Readonly<Record<KitSection, JoinTarget>>; importer: KitImporter; serverName: () => string; version: string; now: () => Date };

  constructor(deps: KitService['deps']) {
    this.deps = deps;
  }

  export(request: KitExport, user: string): Promise<ExportedKit> {
    return exportKit(this.deps.targets, request, { user, serverName: this.deps.serverName(), version: this.deps.version, now: this.deps.now() });
  }

  import(request: KitImport, user: string): Promise<KitImportResult> {
    return this.deps.importer.run(request, user);
  }
}
