import { Badge, Code, Group, Stack, Tabs, Text } from '@mantine/core';
import type { BootPreview } from '@contracts/boot-scripts';
import { CodeEditor } from '../../editor/CodeEditor.js';
import { ARCHITECTURE_TEXT, LOADER_NAME, LOADER_SOURCE_TEXT } from './boot-loader-labels.js';

/*
 * The loader half of the host's boot preview (issue 21): which first stage
 * DHCP hands this machine and why, then what it reads next: the iPXE script
 * or the GRUB configuration, the one it will actually get selected.
 */

/** The first stage the machine gets, prominently: kind, file, what decided it. */
export function LoaderSummary({ loader }: { loader: BootPreview['loader'] }) {
  return (
    <Stack gap={4} role="group" aria-label="Boot loader">
      <Group gap="xs" wrap="wrap">
        <Text size="sm" fw={600}>
          Boot loader:
        </Text>
        <Badge size="lg" radius="sm" variant="filled" color={loader.kind === 'grub' ? 'teal' : 'indigo'}>
          {LOADER_NAME[loader.kind]}
        </Badge>
        {loader.first_stage !== null && (
          <Text size="sm">
            first stage <Code>{loader.first_stage}</Code>
          </Text>
        )}
        <Text size="sm" c="dimmed">
          {loader.architecture !== null ? ARCHITECTURE_TEXT[loader.architecture] : 'architecture not seen yet'} · decided by {LOADER_SOURCE_TEXT[loader.source]}
        </Text>
      </Group>
      <Text size="sm">Why: {loader.reason_text}.</Text>
    </Stack>
  );
}

/** "this one" on the tab of what the machine will get. */
function Gets() {
  return (
    <Badge size="xs" radius="sm" variant="light" ml={6}>
      boots this
    </Badge>
  );
}

/** The rendered iPXE script and GRUB configuration side by side as tabs; GRUB's only where the machine can get it. */
export function RenderedConfigs({ config }: { config: BootPreview }) {
  const grub = config.grub_config;
  const gets = grub !== null && config.loader.kind === 'grub' ? 'grub' : 'ipxe';
  return (
    <Tabs key={gets} defaultValue={gets} keepMounted={false}>
      <Tabs.List aria-label="Rendered configurations">
        <Tabs.Tab value="ipxe">
          iPXE script
          {gets === 'ipxe' && <Gets />}
        </Tabs.Tab>
        {grub !== null ? (
          <Tabs.Tab value="grub">
            GRUB config
            {gets === 'grub' && <Gets />}
          </Tabs.Tab>
        ) : (
          <Text size="sm" c="dimmed" px="sm" py={8}>
            No GRUB config: this machine gets iPXE only
          </Text>
        )}
      </Tabs.List>
      <Tabs.Panel value="ipxe" pt="sm">
        <CodeEditor label="Rendered boot script" value={config.script} readOnly maxHeight="28rem" />
      </Tabs.Panel>
      {grub !== null && (
        <Tabs.Panel value="grub" pt="sm">
          <Stack gap="xs">
            {config.grub_config_path !== null && (
              <Text size="sm">
                GRUB fetches it over TFTP as <Code>{config.grub_config_path}</Code>
              </Text>
            )}
            <CodeEditor label="Rendered GRUB configuration" value={grub} readOnly maxHeight="28rem" />
          </Stack>
        </Tabs.Panel>
      )}
    </Tabs>
  );
}
