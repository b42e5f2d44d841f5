import { AppError } from '../core/errors.js';
import { KIT_FORMAT, KIT_SECTIONS, KIT_VERSION, type KitExport, type KitSection } from './kit-contract.js';
import { exportKey, writeKit, type KitDocument } from './kit-file.js';
import type { KitTarget, SecretsOut } from './kit-target.js';

/*
 * Export (docs/kit.md, "Export"): every included section in the kit's form.
 * Secrets are always sealed under the passphrase; an export without one
 * drops them (null) and says so in the file's `warnings` and the answer —
 * a kit never holds a secret in clear.
 */

export type JoinTarget = KitTarget & { join?(items: readonly unknown[]): unknown };

export interface KitExportMeta {
  user: string;
  serverName: string;
  version: string;
  now: Date;
}

export interface ExportedKit {
  text: string;
  filename: string;
  sections: KitSection[];
  counts: Record<string, number>;
  warnings: string[];
  encrypted: 'none' | 'secrets' | 'whole';
}

export async function exportKit(targets: Readonly<Record<KitSection, JoinTarget>>, request: KitExport, meta: KitExportMeta): Promise<ExportedKit> {
  if (request.encrypt_whole === true && request.passphrase === undefined) {
    throw new AppError('VALIDATION_FAILED', 'encrypt_whole needs a passphrase', { details: [{ field: 'body.passphrase', message: 'required with encrypt_whole' }] });
  }
  const key = await exportKey(request.passphrase);
  const dropped = new Map<string, number>();
  let sealed = 0;
  const include = new Set<KitSection>(request.include ?? KIT_SECTIONS);
  const sections: Record<string, unknown> = {};
  const counts: Record<string, number> = {};
  for (const section of KIT_SECTIONS) {
    if (!include.has(section)) continue;
    const secrets: SecretsOut = {
      seal(plain, purpose) {
        if (!key) {
          dropped.set(section, (dropped.get(section) ?? 0) + 1);
          return null;
        }
        sealed++;
        return key.codec.seal(plain, purpose);
      },
    };
    const target = targets[section];
    const items = await target.exportAll(secrets);
    counts[section] = items.length;
    sections[section] = target.join ? target.join(items) : items;
  }
  const warnings = [...dropped].map(([section, n]) => `${n} secret(s) of ${section} left out: the export had no passphrase (import them by hand, or export again with one)`);
  const document: KitDocument = {
    format: KIT_FORMAT,
    version: KIT_VERSION,
    exported_at: meta.now.toISOString(),
    exported_by: meta.user,
    source: { server_name: meta.serverName, version: meta.version },
    warnings,
    secrets: key && sealed > 0 ? key.params : null,
    sections,
  };
  const whole = request.encrypt_whole === true && key ? { params: key.params, key: key.key } : null;
  const stamp = meta.now.toISOString().slice(0, 19).replaceAll(':', '').replace('T', '-');
  return {
    text: writeKit(document, whole),
    filename: `bootwright-kit-${meta.serverName.replace(/[^A-Za-z0-9-]/g, '_')}-${stamp}.yaml`,
    sections: [...include],
    counts,
    warnings,
    encrypted: whole ? 'whole' : sealed > 0 ? 'secrets' : 'none',
  };
}
