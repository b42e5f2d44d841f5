import { Anchor, Badge, Card, Code, Group, List, Stack, Text, Title } from '@mantine/core';
import type { Detection, IsoInfo, OsImage } from '@contracts/os-images';
import { Link } from 'react-router';
import { Dim } from '../../components/Dim.js';
import { DetailsCard } from '../../components/kit/index.js';
import { formatBytes, formatDateTime } from '../../format.js';
import { ImageStateBadge } from './ImageBadges.js';
import { BOOT_METHOD_LABELS, FAMILY_LABELS, SOURCE_LABELS } from './image-labels.js';

/** Long command lines wrap inside the card instead of running under its edge. */
const WRAP = { whiteSpace: 'pre-wrap', wordBreak: 'break-all' } as const;
const listOrNone = (items: readonly string[], mono = true) =>
  items.length === 0 ? (
    <Dim>none</Dim>
  ) : (
    <List size="sm" spacing={2}>
      {items.map((item) => (
        <List.Item key={item} className={mono ? 'mono' : undefined} style={{ wordBreak: 'break-all' }}>
          {item}
        </List.Item>
      ))}
    </List>
  );

export function ImageDetailsCard({ image }: { image: OsImage }) {
  return (
    <DetailsCard
      id="image-details"
      labelWidth={130}
      title="Details"
      caption="Image details"
      rows={[
        ['Name', image.name],
        ['Slug', <span className="mono">{image.slug}</span>],
        ['Description', image.description || <Dim />],
        ['File', <span className="mono" style={{ wordBreak: 'break-all' }}>{image.path}</span>],
        ['Size', formatBytes(image.size)],
        ['SHA-256', image.sha256 ? <span className="mono" style={{ wordBreak: 'break-all' }}>{image.sha256}</span> : <Dim>being computed</Dim>],
        ['Source', SOURCE_LABELS[image.source]],
        ['State', <ImageStateBadge image={image} />],
        ['Added', formatDateTime(image.created_at)],
        ['Changed', formatDateTime(image.updated_at)],
      ]}
    />
  );
}

const PLATFORM_LABELS: Record<IsoInfo['el_torito'][number]['platform'], string> = { bios: 'BIOS', uefi: 'UEFI', other: 'other platform' };

function ElTorito({ entries }: { entries: IsoInfo['el_torito'] }) {
  if (entries.length === 0) return <Dim>no boot catalog</Dim>;
  return (
    <List size="sm" spacing={2} aria-label="El Torito boot entries">
      {entries.map((entry, index) => (
        <List.Item key={`${entry.platform}-${entry.load_rba}-${index}`}>
          <Text span fw={500} inherit>
            {PLATFORM_LABELS[entry.platform]}
          </Text>
          {` · ${entry.bootable ? 'bootable' : 'not bootable'} · ${entry.emulation.replaceAll('_', ' ')} · ${entry.sector_count} sectors`}
        </List.Item>
      ))}
    </List>
  );
}

export function IsoInfoCard({ iso }: { iso: IsoInfo | null }) {
  if (!iso) {
    return (
      <Card withBorder component="section" aria-labelledby="image-iso">
        <Title order={2} size="h4" id="image-iso" mb="sm">
          ISO 9660
        </Title>
        <Text size="sm" c="dimmed">
          Not read yet.
        </Text>
      </Card>
    );
  }
  return (
    <DetailsCard
      id="image-iso"
      labelWidth={130}
      title="ISO 9660"
      caption="ISO 9660 volume"
      rows={[
        ['Volume id', <span className="mono">{iso.volume_id || '—'}</span>],
        ['Publisher', iso.publisher || <Dim />],
        ['Application', iso.application || <Dim />],
        ['Created', iso.created_at ? formatDateTime(iso.created_at) : <Dim />],
        ['Volume size', formatBytes(iso.volume_bytes)],
        [
          'Extensions',
          <Group gap={4}>
            {iso.joliet && <Badge variant="light" radius="sm" style={{ textTransform: 'none' }}>Joliet</Badge>}
            {iso.rock_ridge && <Badge variant="light" radius="sm" style={{ textTransform: 'none' }}>Rock Ridge</Badge>}
            {iso.udf && <Badge variant="light" color="orange" radius="sm" style={{ textTransform: 'none' }}>UDF</Badge>}
            {!iso.joliet && !iso.rock_ridge && !iso.udf && <Dim>none (plain ISO 9660 names)</Dim>}
          </Group>,
        ],
        ['El Torito', <ElTorito entries={iso.el_torito} />],
        ['Limitations', listOrNone(iso.limitations, false)],
      ]}
    />
  );
}

function CatalogLink({ entry }: { entry: Detection['catalog_entry'] }) {
  if (!entry) return <Dim>no matching catalog entry</Dim>;
  return (
    <Anchor component={Link} to={`/netboot?q=${encodeURIComponent(entry.distro)}`} size="sm">
      {entry.distro} {entry.version} {entry.arch}
    </Anchor>
  );
}

export function DetectionCard({ detection }: { detection: Detection | null }) {
  if (!detection) {
    return (
      <Card withBorder component="section" aria-labelledby="image-detection">
        <Title order={2} size="h4" id="image-detection" mb="sm">
          Detection
        </Title>
        <Text size="sm" c="dimmed">
          Not detected yet. Reprocess reads the ISO again.
        </Text>
      </Card>
    );
  }
  return (
    <DetailsCard
      id="image-detection"
      labelWidth={130}
      title="Detection"
      caption="What detection found"
      rows={[
        ['OS', `${FAMILY_LABELS[detection.family]} · ${detection.distro || '—'}`],
        ['Version', detection.version || <Dim>unknown</Dim>],
        ['Architecture', detection.arch || <Dim>unknown</Dim>],
        ['Boot method', BOOT_METHOD_LABELS[detection.boot_method]],
        ['Kernel', detection.kernel ? <span className="mono">{detection.kernel}</span> : <Dim />],
        ['Initrds', listOrNone(detection.initrds)],
        ['Windows boot.wim', detection.boot_wim ? <span className="mono">{detection.boot_wim}</span> : <Dim />],
        ['UEFI loaders', listOrNone(detection.efi_loaders)],
        ['ISO menu command line', detection.iso_cmdline ? <Code block style={WRAP}>{detection.iso_cmdline}</Code> : <Dim />],
        ['Network boot command line', detection.netboot_cmdline ? <Code block style={WRAP}>{detection.netboot_cmdline}</Code> : <Dim />],
        ['Catalog entry', <CatalogLink entry={detection.catalog_entry} />],
        ['Evidence', listOrNone(detection.evidence)],
        [
          'Notes',
          detection.notes.length === 0 ? (
            <Dim>none</Dim>
          ) : (
            <Stack gap={2}>
              {detection.notes.map((note) => (
                <Text key={note} size="sm">
                  {note}
                </Text>
              ))}
            </Stack>
          ),
        ],
      ]}
    />
  );
}
