import { Anchor, Badge, Button, Card, Group, Progress, Stack, Text, Title } from '@mantine/core';
import type { CatalogEntryView, EntryFilesCheck, NetbootArch, PrefetchJob } from '@contracts/netboot';
import { useCan } from '../../app-state.js';
import { Dim } from '../../components/Dim.js';
import { formatBytes } from '../../format.js';
import { ANSWER_KIND_LABELS, AvailabilityBadge, FAMILY_LABELS } from './netboot-labels.js';
import { percentOf, targetKey } from './prefetch-progress.js';

export interface EntryTarget {
  distro: string;
  version: string;
  arch: NetbootArch;
}

function PrefetchProgress({ job, label }: { job: PrefetchJob; label: string }) {
  const percent = percentOf(job);
  if (job.state === 'failed') {
    return (
      <Text size="xs" c="red" role="alert">
        Prefetch of {label} failed: {job.error ?? 'unknown error'}
      </Text>
    );
  }
  return (
    <Stack gap={2} miw={160} style={{ flex: 1 }}>
      <Progress
        value={percent ?? 100}
        animated={job.state === 'running'}
        striped={percent === null}
        color={job.state === 'done' ? 'teal' : 'blue'}
        aria-label={`Prefetch ${label}`}
        aria-valuetext={job.state === 'done' ? 'done' : percent === null ? `${formatBytes(job.bytes_done)} so far` : `${percent} %`}
      />
      <Text size="xs" c="dimmed" aria-live="polite">
        {job.state === 'done' ? 'Downloaded' : `${formatBytes(job.bytes_done)}${job.bytes_total !== null ? ` of ${formatBytes(job.bytes_total)}` : ''}`}
      </Text>
    </Stack>
  );
}

/**
 * One catalog entry: its versions, and per architecture where the boot files
 * are (check-files), with Prefetch and its live progress; "Create profile"
 * and "Install on a host…" act on the entry.
 */
export function CatalogEntryCard({
  entry,
  checks,
  jobs,
  onPrefetch,
  prefetching,
  onInstall,
  onCreateProfile,
}: {
  entry: CatalogEntryView;
  checks: ReadonlyMap<string, EntryFilesCheck>;
  jobs: ReadonlyMap<string, PrefetchJob>;
  onPrefetch: (target: EntryTarget) => void;
  prefetching: string | null;
  onInstall: (entry: CatalogEntryView) => void;
  onCreateProfile: (entry: CatalogEntryView) => void;
}) {
  const canEdit = useCan('operator');
  const titleId = `catalog-${entry.distro}`;
  return (
    <Card withBorder component="article" aria-labelledby={titleId} padding="md">
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
          <Stack gap={0}>
            <Title order={2} size="h4" id={titleId}>
              {entry.name}
            </Title>
            <Text size="xs" c="dimmed" className="mono">
              {entry.distro}
            </Text>
          </Stack>
          <Group gap={4}>
            <Badge variant="light" radius="sm" style={{ textTransform: 'none' }}>
              {FAMILY_LABELS[entry.family]}
            </Badge>
            <Badge variant="outline" radius="sm" style={{ textTransform: 'none' }}>
              {entry.answer ? ANSWER_KIND_LABELS[entry.answer.kind] : 'no answer file'}
            </Badge>
            {entry.overlay && (
              <Badge color="grape" variant="light" radius="sm" style={{ textTransform: 'none' }} title="An overlay changes the shipped entry">
                overlay
              </Badge>
            )}
          </Group>
        </Group>
        {entry.description && (
          <Text size="sm" lineClamp={3}>
            {entry.description}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          Mirror: {entry.mirror ? <span className="mono">{entry.mirror}</span> : <Dim>none (local files only)</Dim>}
          {entry.homepage && (
            <>
              {' · '}
              <Anchor href={entry.homepage} target="_blank" rel="noreferrer" size="xs">
                homepage
              </Anchor>
            </>
          )}
        </Text>
        <Stack gap={6} component="ul" className="plain-list" aria-label={`Versions of ${entry.name}`}>
          {entry.versions.map((version) => (
            <li key={version.version}>
              <Group gap="xs" align="center" wrap="wrap">
                <Text component="div" size="sm" fw={500} miw={110}>
                  {version.name}
                  {version.default && (
                    <Badge ml={4} size="xs" variant="light">
                      default
                    </Badge>
                  )}
                </Text>
                {version.architectures.map(({ arch }) => {
                  const target = { distro: entry.distro, version: version.version, arch };
                  const key = targetKey(target);
                  const check = checks.get(key);
                  const job = jobs.get(key);
                  const label = `${entry.name} ${version.version} ${arch}`;
                  return (
                    <Group key={arch} gap={6} wrap="nowrap" data-target={key}>
                      {check ? (
                        <AvailabilityBadge availability={check.availability} label={arch} problem={check.problem} />
                      ) : (
                        <Badge color="gray" variant="light" radius="sm" style={{ textTransform: 'none' }}>
                          {arch} · not checked
                        </Badge>
                      )}
                      {job && (job.state !== 'done' || check?.availability === 'remote') ? (
                        <PrefetchProgress job={job} label={label} />
                      ) : (
                        canEdit &&
                        check?.availability === 'remote' && (
                          <Button size="compact-xs" variant="default" aria-label={`Prefetch ${label}`} loading={prefetching === key} onClick={() => onPrefetch(target)}>
                            Prefetch
                          </Button>
                        )
                      )}
                    </Group>
                  );
                })}
              </Group>
            </li>
          ))}
        </Stack>
        {canEdit && (
          <Group gap="xs" justify="flex-end">
            <Button size="xs" variant="default" onClick={() => onCreateProfile(entry)}>
              Create profile
            </Button>
            <Button size="xs" onClick={() => onInstall(entry)}>
              Install on a host…
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}
