import type { AnswerKind, CatalogEntryView, EntryFilesCheck } from '@contracts/netboot';
import { useMemo } from 'react';
import { useApiPage, useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { targetKey } from './prefetch-progress.js';

// The API's page limit; the catalog holds at most 256 entries.
const ALL = { size: 500 };

/** Every catalog entry (for pickers), by distro. */
export function useCatalogOptions() {
  const query = useApiPage([...keys.netbootCatalog, 'options'], ALL, (api, params) => api.netboot.catalog.list(params));
  const entries = useMemo(() => [...(query.data?.data ?? [])].sort((a, b) => a.name.localeCompare(b.name)), [query.data]);
  const byDistro = useMemo(() => new Map<string, CatalogEntryView>(entries.map((entry) => [entry.distro, entry])), [entries]);
  return { query, entries, byDistro };
}

/** Where each entry's files are (GET /netboot/check-files for every entry), by `distro/version/arch`. */
export function useFilesCheck() {
  const query = useApiQuery(keys.netbootFiles, (api) => api.netboot.catalog.checkFiles());
  const byTarget = useMemo(() => new Map<string, EntryFilesCheck>((query.data ?? []).map((check) => [targetKey(check), check])), [query.data]);
  return { query, byTarget };
}

/** Answer templates (for pickers), optionally of one kind only. */
export function useTemplateOptions(kind?: AnswerKind | null) {
  const query = useApiPage([...keys.netbootTemplates, 'options'], ALL, (api, params) => api.netboot.templates.list(params));
  const templates = useMemo(() => [...(query.data?.data ?? [])].sort((a, b) => a.name.localeCompare(b.name)), [query.data]);
  const names = useMemo(() => new Map(templates.map((template) => [template.id, template.name])), [templates]);
  return {
    query,
    templates,
    nameOf: (id: number | null) => (id === null ? null : (names.get(id) ?? `#${id}`)),
    options: templates.filter((template) => !kind || template.kind === kind).map((template) => ({ value: String(template.id), label: template.name })),
  };
}
