import { Anchor, Stack } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { useCan } from '../../app-state.js';
import { DetailLoadError, UrlTabs } from '../../components/kit/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { Loading } from '../../components/QueryState.js';
import { useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { NotFoundPage } from '../NotFoundPage.js';
import { BOOT_TYPE_LABELS } from './boot-type-labels.js';
import { ProfileEditor } from './ProfileEditor.js';
import { ProfileUsageText } from './ProfileUsageText.js';
import { ProfileVersions } from './ProfileVersions.js';

function Breadcrumb({ children }: { children: string }) {
  return (
    <>
      <Anchor component={Link} to="/profiles" inherit>
        Profiles
      </Anchor>{' '}
      › {children}
    </>
  );
}

/** `/profiles/new` and `/profiles/:id`: the editor by boot type, and (tab "versions") the script history. */
export function ProfileDetailPage() {
  const params = useParams();
  const creating = params.id === 'new';
  const id = Number(params.id);
  const valid = creating || (Number.isInteger(id) && id >= 1);
  const query = useApiQuery(keys.profile(id), valid && !creating ? (api) => api.profiles.get(id) : null);
  const canCreate = useCan('operator');

  if (!valid) return <NotFoundPage />;
  if (creating) {
    if (!canCreate) return <NotFoundPage />;
    return (
      <Stack gap="md">
        <PageHeader title="New profile" description={<Breadcrumb>new</Breadcrumb>} />
        <ProfileEditor profile={null} />
      </Stack>
    );
  }
  if (query.isPending) return <Loading label="Loading the profile…" />;
  if (query.isError) return <DetailLoadError what="profile" id={id} listPath="/profiles" listName="profiles" error={query.error} onRetry={() => void query.refetch()} />;
  const profile = query.data;
  return (
    <Stack gap="md">
      <PageHeader
        title={profile.name}
        description={
          <>
            <Breadcrumb>{`${BOOT_TYPE_LABELS[profile.boot_type]} · script version ${profile.script_version}`}</Breadcrumb>
            {' · '}
            <ProfileUsageText profileId={profile.id} usage={profile.used_by} prefix="used by " />
          </>
        }
      />
      <UrlTabs
        tabs={[
          { value: 'profile', label: 'Settings and script', panel: <ProfileEditor profile={profile} /> },
          { value: 'versions', label: `Versions (${profile.script_version})`, panel: <ProfileVersions profile={profile} /> },
        ]}
      />
    </Stack>
  );
}
