import { checkIndex, checkItemFile, parseText, payloadSha256, STORE_INDEX_SCHEMA_VERSION, type StoreIndex } from './item-format.js';

/**
 * The index of a set of item files (the shipped catalog's index.yaml, or a
 * feed's index.json): each item's metadata, its file and its payload digest,
 * in type then id order. Throws on an invalid item.
 */
export function buildIndex(files: readonly { file: string; text: string }[]): StoreIndex {
  const items = files.map(({ file, text }) => {
    const item = checkItemFile(parseText(text, file), file);
    return {
      type: item.type,
      id: item.id,
      name: item.name,
      version: item.version,
      summary: item.summary,
      tags: item.tags,
      os_family: item.os_family,
      author: item.author,
      sha256: payloadSha256(item.payload),
      file,
    };
  });
  items.sort((a, b) => (a.type === b.type ? a.id.localeCompare(b.id) : a.type.localeCompare(b.type)));
  return checkIndex({ schema_version: STORE_INDEX_SCHEMA_VERSION, items }, 'index');
}
