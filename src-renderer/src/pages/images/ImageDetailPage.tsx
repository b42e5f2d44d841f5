import { Alert, Anchor, Button, Card, CopyButton, Group, List, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { BootProfileSource, OsImage } from '@contracts/os-images';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { imageFileUrl, type BootProfileResult } from '../../api/clients/os-images-client.js';
import { useAppState, useCan, useLiveEvents } from '../../app-state.js';
import { DetailLoadError } from '../../components/kit/index.js';
import { PageHeader } from '../../components/PageHeader.js';
import { Loading } from '../../components/QueryState.js';
import { formatBytes, formatDateTime } from '../../format.js';
import { useApiAction, useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { NotFoundPage } from '../NotFoundPage.js';
import { DeleteImageDialog } from './DeleteImageDialog.js';
import { EditImageDialog } from './EditImageDialog.js';
import { ExtractDialog } from './ExtractDialog.js';
import { extractFailureOf, extractProgressOf, lanUrl } from './image-labels.js';
import { DetectionCard, ImageDetailsCard, IsoInfoCard } from './ImageInfoCards.js';

/** A URL with a copy button (the mount's address other machines use). */
function CopyableUrl({ url, label }: { url: string; label: string }) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Text size="sm" className="mono" style={{ wordBreak: 'break-all', minWidth: 0 }} aria-label={label}>
        {url}
      </Text>
      <CopyButton value={url}>
        {({ copied, copy }) => (
          <Button size="compact-xs" variant="default" onClick={copy} aria-label={`Copy ${label}`} style={{ flexShrink: 0 }}>
            {copied ? 'Copied' : 'Copy'}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}

/** Mount (the content served from the ISO) and extraction, with a running extraction's progress from the events. */
function ServingCard({ image }: { image: OsImage }) {
  const status = useApiQuery(keys.status, (api) => api.system.status());
  const events = useLiveEvents((state) => state.events);
  const progress = extractProgressOf(events, image.id);
  const failure = progress ? null : extractFailureOf(events, image.id);
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  const urls = status.data?.urls;
  return (
    <Card withBorder component="section" aria-labelledby="image-serving">
      <Title order={2} size="h4" id="image-serving" mb="sm">
        Served
      </Title>
      <Stack gap="sm">
        {image.mounted ? (
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              Mounted since {formatDateTime(image.mounted.since)}: the ISO's content is served without copying it
            </Text>
            <CopyableUrl url={lanUrl(urls, image.mounted.url_path, origin)} label="Mounted content URL" />
            <Text size="xs" c="dimmed">
              Over TFTP as <span className="mono">{image.mounted.url_path.replace(/^\/boot\//, '')}</span>; the ISO file itself:
            </Text>
            <CopyableUrl url={lanUrl(urls, `/boot/iso/${image.slug}.iso`, origin)} label="ISO file URL" />
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            Not mounted. Mounting serves the ISO's files under <span className="mono">/boot/iso/{image.slug}/</span> straight from the ISO (no copy).
          </Text>
        )}
        {failure && (
          <Alert color="red" title="The extraction failed" role="alert">
            {failure}
          </Alert>
        )}
        {progress ? (
          <Stack gap={4} role="group" aria-label="Extraction progress">
            <Text size="sm" fw={500}>
              Extracting… {progress.files} files, {formatBytes(progress.bytes)}
              {progress.totalBytes !== null ? ` of ${formatBytes(progress.totalBytes)}` : ''}
            </Text>
            <Progress value={progress.percent} animated aria-label="Extraction" />
            <Text size="xs" c="dimmed">
              {progress.percent} %
            </Text>
          </Stack>
        ) : image.extracted ? (
          <Text size="sm">
            Extracted ({image.extracted.mode === 'boot' ? 'boot files' : 'whole tree'}) to <span className="mono">{image.extracted.boot_path}</span> in the boot root: {image.extracted.files} files,{' '}
            {formatBytes(image.extracted.bytes)}, {formatDateTime(image.extracted.at)}
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            Not extracted.
          </Text>
        )}
      </Stack>
    </Card>
  );
}

function BootProfileNotice({ result, onClose }: { result: BootProfileResult; onClose: () => void }) {
  return (
    <Alert color="teal" title="A profile boots this ISO now" withCloseButton onClose={onClose} closeButtonLabel="Dismiss">
      <Text size="sm">
        Profile{' '}
        <Anchor component={Link} to={`/profiles/${result.profile.id}`} inherit>
          {result.profile.name}
        </Anchor>{' '}
        {result.created ? 'was created' : 'boots it already (none was added)'}. Assign it to hosts or a group to boot them from the image.
      </Text>
      {result.notes.length > 0 && (
        <List size="sm" mt={4}>
          {result.notes.map((note) => (
            <List.Item key={note}>{note}</List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}

function Actions({ image, onBootProfile }: { image: OsImage; onBootProfile: (result: BootProfileResult) => void }) {
  const { client } = useAppState();
  const [dialog, setDialog] = useState<'edit' | 'extract' | 'delete' | null>(null);
  const busy = image.state === 'processing';
  const invalidate = [keys.osImages];
  const mount = useApiAction((api) => (image.mounted ? api.osImages.unmount(image.id) : api.osImages.mount(image.id)), {
    invalidate,
    success: (saved) => (saved.mounted ? `${saved.name} is mounted under ${saved.mounted.url_path}.` : `${saved.name} is unmounted.`),
    errorTitle: image.mounted ? 'Unmounting failed' : 'Mounting failed',
  });
  const reprocess = useApiAction((api) => api.osImages.reprocess(image.id), { invalidate, success: 'The image is read and detected again.', errorTitle: 'Reprocessing failed' });
  const boot = useApiAction((api, via: BootProfileSource) => api.osImages.bootProfile(image.id, { via }), {
    invalidate: [...invalidate, keys.profiles],
    errorTitle: 'No profile was created',
    onSuccess: onBootProfile,
  });
  const cannotBoot = busy || image.state === 'error' || image.detection?.boot_method === 'none';
  return (
    <>
      <Group gap="xs" wrap="wrap">
        <Button onClick={() => mount.mutate(undefined)} loading={mount.isPending} disabled={!image.mounted && (busy || image.state === 'error')} variant={image.mounted ? 'default' : 'filled'}>
          {image.mounted ? 'Unmount' : 'Mount'}
        </Button>
        <Button variant="default" onClick={() => setDialog('extract')} disabled={busy || image.state === 'error'}>
          Extract…
        </Button>
        <Button variant="default" onClick={() => boot.mutate('http')} loading={boot.isPending && boot.variables === 'http'} disabled={cannotBoot}>
          Boot this ISO
        </Button>
        {image.detection?.boot_method === 'linux' && (
          <Button
            variant="default"
            onClick={() => boot.mutate('nfs')}
            loading={boot.isPending && boot.variables === 'nfs'}
            disabled={cannotBoot}
            title="A profile whose live system or installer reads the image over NFS (casper, live-boot, Anaconda and archiso images); the kernel and initrd still come over HTTP"
          >
            Boot over NFS
          </Button>
        )}
        <Button variant="default" onClick={() => reprocess.mutate(undefined)} loading={reprocess.isPending} disabled={busy}>
          Reprocess
        </Button>
        <Button variant="default" onClick={() => setDialog('edit')}>
          Edit
        </Button>
        <Button variant="light" color="red" onClick={() => setDialog('delete')}>
          Delete
        </Button>
        {client.kind === 'http' && (
          <Button component="a" href={imageFileUrl(image.id)} download={image.file_name} variant="subtle">
            Download
          </Button>
        )}
      </Group>
      <EditImageDialog image={image} opened={dialog === 'edit'} onClose={() => setDialog(null)} />
      <ExtractDialog image={image} opened={dialog === 'extract'} onClose={() => setDialog(null)} />
      <DeleteImageDialog image={image} opened={dialog === 'delete'} onClose={() => setDialog(null)} />
    </>
  );
}

/** `/images/:id`: an OS image's ISO facts, detection, how it is served, and what to do with it. */
export function ImageDetailPage() {
  const params = useParams();
  const id = Number(params.id);
  const valid = Number.isInteger(id) && id >= 1;
  const query = useApiQuery(keys.osImage(id), valid ? (api) => api.osImages.get(id) : null);
  const { client } = useAppState();
  const canOperate = useCan('operator');
  const [bootProfile, setBootProfile] = useState<BootProfileResult | null>(null);
  if (!valid) return <NotFoundPage />;
  if (query.isPending) return <Loading label="Loading the image…" />;
  if (query.isError) return <DetailLoadError what="image" id={id} listPath="/images" listName="OS images" error={query.error} onRetry={() => void query.refetch()} />;
  const image = query.data;
  return (
    <Stack gap="md">
      <PageHeader
        title={image.name}
        description={
          <>
            <Anchor component={Link} to="/images" inherit>
              OS images
            </Anchor>{' '}
            › <span className="mono">{image.file_name}</span> · {formatBytes(image.size)}
          </>
        }
      />
      {canOperate ? (
        <Actions image={image} onBootProfile={setBootProfile} />
      ) : (
        client.kind === 'http' && (
          <Group>
            <Anchor href={imageFileUrl(image.id)} download={image.file_name} size="sm">
              Download the ISO
            </Anchor>
          </Group>
        )
      )}
      {bootProfile && <BootProfileNotice result={bootProfile} onClose={() => setBootProfile(null)} />}
      {image.state === 'error' && (
        <Alert color="red" title="The image cannot be used" role="alert">
          {image.error ?? 'The file is missing or unreadable.'}
        </Alert>
      )}
      {image.state === 'processing' && (
        <Alert color="blue" title="Processing">
          The file is being hashed, read or detected; this page follows it live.
        </Alert>
      )}
      <ServingCard image={image} />
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <Stack gap="md">
          <ImageDetailsCard image={image} />
          <IsoInfoCard iso={image.iso} />
        </Stack>
        <DetectionCard detection={image.detection} />
      </SimpleGrid>
    </Stack>
  );
}
