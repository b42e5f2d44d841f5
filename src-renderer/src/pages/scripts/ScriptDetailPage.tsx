import { Anchor, Stack } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { DetailLoadError, UrlTabs } from '../../components/kit/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { Loading } from '../../components/QueryState.js';
import { useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { NotFoundPage } from '../NotFoundPage.js';
import { OS_FAMILY_LABELS, SCRIPT_KIND_LABELS } from './script-labels.js';
import { ScriptEditor } from './ScriptEditor.js';
import { ScriptVersions } from './ScriptVersions.js';

/** `/scripts/:id`: the editor and the versions (tabs kept in ?tab=). */
export function ScriptDetailPage() {
  const params = useParams();
  const id = Number(params.id);
  const valid = Number.isInteger(id) && id >= 1;
  const query = useApiQuery(keys.script(id), valid ? (api) => api.scripts.get(id) : null);
  if (!valid) return <NotFoundPage />;
  if (query.isPending) return <Loading label="Loading the script…" />;
  if (query.isError) return <DetailLoadError what="script" id={id} listPath="/scripts" listName="scripts" error={query.error} onRetry={() => void query.refetch()} />;
  const script = query.data;
  return (
    <Stack gap="md">
      <PageHeader
        title={script.name}
        description={
          <>
            <Anchor component={Link} to="/scripts" inherit>
              Post-install scripts
            </Anchor>{' '}
            › {SCRIPT_KIND_LABELS[script.kind]} · {OS_FAMILY_LABELS[script.os_family]} · version {script.version}
          </>
        }
      />
      <UrlTabs
        tabs={[
          { value: 'edit', label: 'Script', panel: <ScriptEditor script={script} /> },
          { value: 'versions', label: `Versions (${script.version})`, panel: <ScriptVersions script={script} /> },
        ]}
      />
    </Stack>
  );
}
