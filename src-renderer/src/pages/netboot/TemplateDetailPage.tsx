import { Anchor, Stack } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { DetailLoadError, UrlTabs } from '../../components/kit/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { Loading } from '../../components/QueryState.js';
import { useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { NotFoundPage } from '../NotFoundPage.js';
import { ANSWER_KIND_LABELS } from './netboot-labels.js';
import { TemplateEditor } from './TemplateEditor.js';
import { TemplatePreview } from './TemplatePreview.js';
import { TemplateVersions } from './TemplateVersions.js';

/** `/netboot/templates/:id`: the editor, a preview for a host, and the versions (tabs kept in ?tab=). */
export function TemplateDetailPage() {
  const params = useParams();
  const id = Number(params.id);
  const valid = Number.isInteger(id) && id >= 1;
  const query = useApiQuery(keys.netbootTemplate(id), valid ? (api) => api.netboot.templates.get(id) : null);
  if (!valid) return <NotFoundPage />;
  if (query.isPending) return <Loading label="Loading the template…" />;
  if (query.isError) return <DetailLoadError what="answer template" id={id} listPath="/netboot/templates" listName="answer templates" error={query.error} onRetry={() => void query.refetch()} />;
  const template = query.data;
  return (
    <Stack gap="md">
      <PageHeader
        title={template.name}
        description={
          <>
            <Anchor component={Link} to="/netboot/templates" inherit>
              Answer templates
            </Anchor>{' '}
            › {ANSWER_KIND_LABELS[template.kind]} · version {template.version}
            {template.preset ? ` · from preset ${template.preset}` : ''}
          </>
        }
      />
      <UrlTabs
        tabs={[
          { value: 'edit', label: 'Template', panel: <TemplateEditor template={template} /> },
          { value: 'preview', label: 'Preview', panel: <TemplatePreview template={template} /> },
          { value: 'versions', label: `Versions (${template.version})`, panel: <TemplateVersions template={template} /> },
        ]}
      />
    </Stack>
  );
}
