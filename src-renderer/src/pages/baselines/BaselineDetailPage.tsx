import { Anchor, Stack } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { useCan } from '../../app-state.js';
import { DetailLoadError } from '../../components/kit/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { Loading } from '../../components/QueryState.js';
import { useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { NotFoundPage } from '../NotFoundPage.js';
import { BaselineEditor } from './BaselineEditor.js';
import { OS_FAMILY_LABELS } from './baseline-form-model.js';

function Breadcrumb({ children }: { children: string }) {
  return (
    <>
      <Anchor component={Link} to="/baselines" inherit>
        Baselines
      </Anchor>{' '}
      › {children}
    </>
  );
}

/** `/baselines/new` and `/baselines/:id`: the baseline editor. */
export function BaselineDetailPage() {
  const params = useParams();
  const creating = params.id === 'new';
  const id = Number(params.id);
  const valid = creating || (Number.isInteger(id) && id >= 1);
  const query = useApiQuery(keys.baseline(id), valid && !creating ? (api) => api.baselines.get(id) : null);
  const canCreate = useCan('operator');

  if (!valid) return <NotFoundPage />;
  if (creating) {
    if (!canCreate) return <NotFoundPage />;
    return (
      <Stack gap="md">
        <PageHeader title="New baseline" description={<Breadcrumb>new</Breadcrumb>} />
        <BaselineEditor baseline={null} />
      </Stack>
    );
  }
  if (query.isPending) return <Loading label="Loading the baseline…" />;
  if (query.isError) return <DetailLoadError what="baseline" id={id} listPath="/baselines" listName="baselines" error={query.error} onRetry={() => void query.refetch()} />;
  const baseline = query.data;
  const count = baseline.scripts.length;
  return (
    <Stack gap="md">
      <PageHeader title={baseline.name} description={<Breadcrumb>{`${OS_FAMILY_LABELS[baseline.os_family]} · ${count} ${count === 1 ? 'script' : 'scripts'}${baseline.assign.is_default ? ' · default' : ''}`}</Breadcrumb>} />
      <BaselineEditor baseline={baseline} />
    </Stack>
  );
}
