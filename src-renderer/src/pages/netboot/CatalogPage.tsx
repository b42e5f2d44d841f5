import { Group, Pagination, SimpleGrid, Stack, Text } from '@mantine/core';
import { NETBOOT_ARCHES, OS_FAMILIES, type CatalogEntryView, type PrefetchBody } from '@contracts/netboot';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { filterOptions, TableToolbar } from '../../components/kit/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { EmptyState, LoadError, Loading } from '../../components/QueryState.js';
import { useTableParams } from '../../components/use-table-params.js';
import { useApiAction, useApiPage, useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { CacheStatsCard } from './CacheStatsCard.js';
import { CatalogEntryCard, type EntryTarget } from './CatalogEntryCard.js';
import { CreateTaskDialog, type TaskPreset } from './CreateTaskDialog.js';
import { FAMILY_LABELS } from './netboot-labels.js';
import { targetKey, usePrefetchJobs } from './prefetch-progress.js';
import { ProfileFromEntryDialog } from './ProfileFromEntryDialog.js';
import { useFilesCheck } from './use-netboot-options.js';

/** `/netboot`: the OS catalog with per-architecture availability, prefetch, and the download cache. */
export function CatalogPage() {
  const table = useTableParams({ defaultSize: 25, filters: ['group', 'family', 'arch'] as const });
  const query = useApiPage(keys.netbootCatalog, table.apiParams, (api, params) => api.netboot.catalog.list(params));
  const groups = useApiQuery(keys.netbootGroups, (api) => api.netboot.catalog.groups());
  const files = useFilesCheck();
  const { jobs, record } = usePrefetchJobs();
  const navigate = useNavigate();
  const [installing, setInstalling] = useState<TaskPreset | null>(null);
  const [profileOf, setProfileOf] = useState<CatalogEntryView | null>(null);
  const prefetch = useApiAction((api, body: PrefetchBody) => api.netboot.cache.prefetch(body), {
    errorTitle: 'Prefetch did not start',
    onSuccess: (job) => record(job),
  });

  const groupOptions = [...(groups.data ?? [])].sort((a, b) => a.order - b.order).map((group) => ({ value: group.id, label: group.name }));
  const result = query.data;
  const pages = result ? Math.max(1, Math.ceil(result.meta.total / table.size)) : 1;

  return (
    <Stack gap="md">
      <PageHeader title="Netboot catalog" description="Operating systems and tools a machine can boot over the network, where their files are, and the download cache." />
      <CacheStatsCard />
      <TableToolbar
        table={table}
        search={{ label: 'Search the catalog', placeholder: 'Search name, distro, description' }}
        filters={[
          { kind: 'select', name: 'group', label: 'Group', options: groupOptions, width: 170 },
          { kind: 'select', name: 'family', label: 'Family', options: filterOptions(Object.fromEntries(OS_FAMILIES.map((family) => [family, FAMILY_LABELS[family]]))), width: 170 },
          { kind: 'select', name: 'arch', label: 'Architecture', options: NETBOOT_ARCHES.map((arch) => ({ value: arch, label: arch })), width: 150 },
        ]}
      />
      {files.query.isError && <LoadError what="where the boot files are" error={files.query.error} onRetry={() => void files.query.refetch()} />}
      {query.isPending ? (
        <Loading label="Loading the catalog…" />
      ) : query.isError && !result ? (
        <LoadError what="the catalog" error={query.error} onRetry={() => void query.refetch()} />
      ) : result && result.data.length === 0 ? (
        <EmptyState>{table.q || Object.values(table.filters).some(Boolean) ? 'Nothing matches the search or filters.' : 'The catalog is empty.'}</EmptyState>
      ) : (
        result && (
          <>
            <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md" aria-busy={query.isFetching || undefined}>
              {result.data.map((entry) => (
                <CatalogEntryCard
                  key={entry.distro}
                  entry={entry}
                  checks={files.byTarget}
                  jobs={jobs}
                  prefetching={prefetch.isPending && prefetch.variables ? targetKey(prefetch.variables) : null}
                  onPrefetch={(target: EntryTarget) => prefetch.mutate(target)}
                  onInstall={(chosen) => setInstalling({ distro: chosen.distro })}
                  onCreateProfile={setProfileOf}
                />
              ))}
            </SimpleGrid>
            <Group justify="space-between">
              <Text size="sm" c="dimmed" aria-live="polite">
                {result.meta.total} {result.meta.total === 1 ? 'entry' : 'entries'}
              </Text>
              {pages > 1 && <Pagination size="sm" total={pages} value={Math.min(table.page, pages)} onChange={table.setPage} getItemProps={(page) => ({ 'aria-label': `Page ${page}` })} />}
            </Group>
          </>
        )
      )}
      {installing && <CreateTaskDialog opened onClose={() => setInstalling(null)} preset={installing} onCreated={(task) => void navigate(`/netboot/tasks/${task.id}`)} />}
      <ProfileFromEntryDialog entry={profileOf} onClose={() => setProfileOf(null)} />
    </Stack>
  );
}
