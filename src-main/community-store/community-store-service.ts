import { AppError, notFound } from '../core/errors.js';
import {
  BUILTIN_SOURCE,
  type StoreImport,
  type StoreImportLocal,
  type StoreImportResult,
  type StoreItemType,
} from './community-store-contract.js';
import { checkItemFile, itemKey, parseText, schemaErrors, StoreBundleFileSchema, type StoreItemFile } from './item-format.js';
import { validationError } from '../core/errors.js';
import type { StoreCatalog } from './store-catalog.js';
import { LOCAL_SOURCE, resolvedOf, type ItemResolver, type ResolvedItem, type StoreImporter } from './store-importer.js';

/**
 * The store's operations as routes and other areas use them: the catalog,
 * imports from it (the item from its source, requirements from the same
 * source, else the shipped catalog) and of local files.
 */
export class CommunityStoreService {
  readonly catalog: StoreCatalog;
  private readonly importer: StoreImporter;

  constructor(deps: { catalog: StoreCatalog; importer: StoreImporter }) {
    this.catalog = deps.catalog;
    this.importer = deps.importer;
  }

  async import(body: StoreImport, user: string): Promise<StoreImportResult> {
    const found = await this.catalog.find(body.type, body.id, body.source);
    const root = resolvedOf(found.source, await found.load());
    const resolve: ItemResolver = async (type, id) => {
      const dependency = await this.findPreferring(type, id, found.source);
      return resolvedOf(dependency.source, await dependency.load());
    };
    return this.importer.run(root, resolve, body, user);
  }

  /**
   * A local file: one item (the format of a feed's item file) or a bundle
   * file (`format: bootwright-store-bundle`, several items). References
   * resolve to the file's own items first, then the shipped catalog.
   */
  async importLocal(body: StoreImportLocal, user: string): Promise<StoreImportResult> {
    const parsed = parseText(body.content, body.filename ?? 'content');
    const items = isBundleFile(parsed) ? bundleItems(parsed) : [checkItemFile(parsed, 'content')];
    const local = new Map(items.map((item) => [itemKey(item.type, item.id), resolvedOf(LOCAL_SOURCE, item)]));
    if (local.size !== items.length) throw validationError([{ field: 'content.items', message: 'an item is listed twice' }]);
    const root: ResolvedItem =
      items.length === 1 && items[0]
        ? resolvedOf(LOCAL_SOURCE, items[0])
        : resolvedOf(LOCAL_SOURCE, {
            type: 'bundle',
            id: 'local-file',
            name: body.filename ?? 'local file',
            version: '0',
            summary: '',
            description: '',
            tags: [],
            os_family: null,
            author: user,
            payload: { items: [...local.keys()] },
          });
    const resolve: ItemResolver = async (type, id) => {
      const own = local.get(itemKey(type, id));
      if (own) return own;
      const shipped = await this.catalog.find(type, id, BUILTIN_SOURCE).catch(() => {
        throw new AppError('VALIDATION_FAILED', `the file refers to ${itemKey(type, id)}, which is neither in the file nor in the shipped catalog`);
      });
      return resolvedOf(shipped.source, await shipped.load());
    };
    return this.importer.run(root, resolve, body, user);
  }

  private async findPreferring(type: StoreItemType, id: string, source: string) {
    try {
      return await this.catalog.find(type, id, source);
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'NOT_FOUND' || source === BUILTIN_SOURCE) throw err;
      return this.catalog.find(type, id, BUILTIN_SOURCE).catch(() => {
        throw notFound(`store item required from source "${source}"`, itemKey(type, id));
      });
    }
  }
}

function isBundleFile(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'format' in value;
}

function bundleItems(value: unknown): StoreItemFile[] {
  const errors = schemaErrors(StoreBundleFileSchema, value, 'content');
  if (errors.length > 0) throw validationError(errors);
  return (value as { items: unknown[] }).items.map((item, index) => checkItemFile(item, `content.items[${index}]`));
}
