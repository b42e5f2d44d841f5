import { Alert, Anchor, Badge, Button, Code, Group, List, Radio, Stack, Text, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { FirstRunState } from '@contracts/system';
import type { Nic } from '@contracts/network';
import type { Profile } from '@contracts/profiles';
import type { BootloaderCheckReport } from '@contracts/boot-files';
import { useState } from 'react';
import { Link } from 'react-router';
import { isApiError } from '../../api/api-error.js';
import { useSession } from '../../app-state.js';
import { ChangePasswordModal } from '../../components/ChangePasswordModal.js';
import { useApiAction } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import {
  candidateInterfaces,
  ipv4Of,
  linkOf,
  probeOutcome,
  recommendedMode,
  subnetFromSuggestion,
  suggestSubnet,
  type LinkState,
  type ProbeOutcome,
  type SubnetSuggestion,
} from './setup-model.js';

const LINK_BADGE: Record<LinkState, { color: string; label: string }> = {
  up: { color: 'green', label: 'link up' },
  down: { color: 'red', label: 'no link (cable unplugged?)' },
  unknown: { color: 'gray', label: 'link unknown' },
};

/** Step 1: the generated admin password. */
export function PasswordStep({ state }: { state: FirstRunState }) {
  const session = useSession((s) => s.session);
  const [opened, modal] = useDisclosure(false);
  if (!state.must_change_password) {
    return <Text size="sm">The admin password is no longer the generated one.</Text>;
  }
  const own = session?.via === 'session' && session.user.username === 'admin';
  return (
    <Stack gap="xs">
      <Alert color="orange" title="The admin account still has its generated password">
        <Text size="sm">It was printed in the first start&apos;s log and written to the data directory&apos;s initial-admin-password file.</Text>
      </Alert>
      {own ? (
        <Group>
          <Button onClick={modal.open}>Change the admin password</Button>
        </Group>
      ) : (
        <Anchor component={Link} to="/users" size="sm">
          Set a new password for admin on the Users page
        </Anchor>
      )}
      {own && <ChangePasswordModal opened={opened} onClose={modal.close} />}
    </Stack>
  );
}

/** Step 2: the interface the target machines are cabled to, with its link and addresses. */
export function InterfaceStep({ nics, chosen, onChoose }: { nics: Nic[]; chosen: string | null; onChoose: (name: string) => void }) {
  const candidates = candidateInterfaces(nics);
  if (candidates.length === 0) {
    return <Alert color="orange" title="No network interface found">Plug in a network adapter or a cable, then reload this page.</Alert>;
  }
  return (
    <Radio.Group label="Interface the machines to boot are cabled to" value={chosen ?? ''} onChange={onChoose}>
      <Stack gap="xs" mt="xs">
        {candidates.map((nic) => {
          const link = LINK_BADGE[linkOf(nic)];
          return (
            <Radio
              key={nic.name}
              value={nic.name}
              label={
                <Group gap="xs">
                  <Text size="sm" fw={500} className="mono">
                    {nic.name}
                  </Text>
                  <Badge size="sm" variant="light" color={link.color}>
                    {link.label}
                  </Badge>
                  <Text size="xs" c="dimmed" className="mono">
                    {nic.addresses.length > 0 ? nic.addresses.map((address) => address.cidr).join(', ') : 'no address'}
                  </Text>
                </Group>
              }
            />
          );
        })}
      </Stack>
    </Radio.Group>
  );
}

/** Step 3: server or proxy mode, with what the rogue-DHCP probe found on the interface. */
export function ModeStep({ iface, mode, onMode }: { iface: string; mode: 'server' | 'proxy'; onMode: (mode: 'server' | 'proxy') => void }) {
  const [outcome, setOutcome] = useState<ProbeOutcome | null>(null);
  const probe = useApiAction(
    async (api, name: string) => {
      try {
        return probeOutcome(await api.dhcp.guard.probe({ interface: name }));
      } catch (err) {
        // A server without the probe (older build) answers 404: say so and let the technician choose.
        if (isApiError(err) && err.status === 404) return probeOutcome(null);
        throw err;
      }
    },
    {
      errorTitle: 'The probe failed',
      onSuccess: (result) => {
        setOutcome(result);
        onMode(recommendedMode(result));
      },
    },
  );
  return (
    <Stack gap="sm">
      <Group>
        <Button variant="default" loading={probe.isPending} onClick={() => probe.mutate(iface)}>
          Probe {iface} for other DHCP servers
        </Button>
      </Group>
      {outcome?.kind === 'clear' && <Text size="sm">No other DHCP server answered on {iface}: server mode hands out addresses here.</Text>}
      {outcome?.kind === 'unavailable' && <Text size="sm">Probe not available on this server: choose the mode yourself.</Text>}
      {outcome?.kind === 'foreign' && (
        <Alert color="orange" title="Another DHCP server answers on this network">
          <List size="sm">
            {outcome.servers.map((server) => (
              <List.Item key={`${server.server_id}/${server.source_ip}`}>
                {server.server_id}
                {server.mac ? ` (${server.mac})` : ''} offered {server.offered_ip ?? 'an address'}
              </List.Item>
            ))}
          </List>
          <Text size="sm" mt={4}>
            Proxy mode leaves the addresses to it and adds only the boot information.
          </Text>
        </Alert>
      )}
      <Radio.Group label="DHCP mode" value={mode} onChange={(value) => onMode(value === 'proxy' ? 'proxy' : 'server')}>
        <Stack gap={4} mt="xs">
          <Radio value="server" label="Server: Bootwright hands out addresses (a cable straight to the machine, or a lab network without DHCP)" />
          <Radio value="proxy" label="Proxy: another DHCP server hands out addresses; Bootwright adds the boot information" />
        </Stack>
      </Radio.Group>
    </Stack>
  );
}

/** Step 4: the subnet and range (server mode), saved with the interface's mode through PUT /services/dhcp. */
export function SubnetStep({ nic, mode, onSaved }: { nic: Nic | null; mode: 'server' | 'proxy'; onSaved: () => void }) {
  const suggestion: SubnetSuggestion | null = nic ? suggestSubnet(ipv4Of(nic)) : null;
  const [range, setRange] = useState({ start: suggestion?.start ?? '', end: suggestion?.end ?? '' });
  const save = useApiAction(
    async (api, _: void) => {
      if (!nic) throw new Error('choose an interface first');
      const current = await api.dhcp.settings.get();
      const interfaces = [...current.interfaces.filter((entry) => entry.name !== nic.name), { name: nic.name, mode }];
      const subnets =
        mode === 'server' && suggestion
          ? [...current.subnets.filter((subnet) => subnet.subnet !== suggestion.subnet), subnetFromSuggestion(suggestion, range)]
          : current.subnets;
      return api.dhcp.settings.update({ interfaces, subnets });
    },
    { invalidate: [keys.dhcp], errorTitle: 'The DHCP settings were not saved', success: 'DHCP settings saved.', onSuccess: onSaved },
  );
  if (!nic) return <Text size="sm">Choose an interface first.</Text>;
  if (mode === 'proxy') {
    return (
      <Stack gap="xs">
        <Text size="sm">In proxy mode the other DHCP server hands out the addresses: no subnet to set here.</Text>
        <Group>
          <Button onClick={() => save.mutate()} loading={save.isPending}>
            Serve {nic.name} in proxy mode
          </Button>
        </Group>
      </Stack>
    );
  }
  if (!suggestion) {
    return (
      <Alert color="orange" title={`${nic.name} has no IPv4 address to build a subnet from`}>
        Give the interface an address (e.g. 192.168.50.1/24), then come back, or set a subnet on the DHCP page.
      </Alert>
    );
  }
  return (
    <Stack gap="xs">
      <Text size="sm">
        Subnet <Code>{suggestion.subnet}</Code>, this server <Code>{suggestion.server}</Code> (also handed out as router and DNS server).
      </Text>
      <Group align="flex-end" gap="xs">
        <TextInput label="Range start" value={range.start} onChange={(event) => setRange({ ...range, start: event.currentTarget.value })} w={160} />
        <TextInput label="Range end" value={range.end} onChange={(event) => setRange({ ...range, end: event.currentTarget.value })} w={160} />
        <Button onClick={() => save.mutate()} loading={save.isPending}>
          Save the subnet and serve {nic.name}
        </Button>
      </Group>
    </Stack>
  );
}

/** Step 5: the boot file check, a first profile as the default, and what to do next. */
export function BootStep({ iface }: { iface: string | null }) {
  const [check, setCheck] = useState<BootloaderCheckReport | null>(null);
  const [profile, setProfile] = useState<Profile | null>(null);
  const runCheck = useApiAction((api, _: void) => api.bootFiles.bootloaders.check(), { errorTitle: 'The check failed', onSuccess: setCheck });
  const create = useApiAction(
    async (api, kind: 'debian' | 'local') => {
      const created = kind === 'debian' ? await api.netboot.profileFromEntry({ distro: 'debian', version: '12' }) : await api.profiles.create({ name: 'Local disk', boot_type: 'local' });
      // The default profile is what a machine nobody assigned gets: the one just created.
      await api.settings.netboot.update({ default_profile_id: created.id });
      return created;
    },
    { invalidate: [keys.profiles, keys.settings], errorTitle: 'The profile was not created', success: (created) => `Profile ${created.name} created and made the default.`, onSuccess: setProfile },
  );
  return (
    <Stack gap="sm">
      <Group>
        <Button variant="default" onClick={() => runCheck.mutate()} loading={runCheck.isPending}>
          Check the boot files
        </Button>
      </Group>
      {check && (
        <Text size="sm">
          {check.ok ? 'Boot loaders: no errors.' : `Boot loaders: ${check.problems.filter((p) => p.severity === 'error').length} error(s) — see TFTP & boot loaders.`}
        </Text>
      )}
      <Group>
        <Button variant="default" onClick={() => create.mutate('debian')} loading={create.isPending && create.variables === 'debian'}>
          Create the Debian 12 installer profile
        </Button>
        <Button variant="default" onClick={() => create.mutate('local')} loading={create.isPending && create.variables === 'local'}>
          Create a local-disk profile
        </Button>
      </Group>
      {profile && (
        <Alert color="teal" title="Ready to boot">
          <Text size="sm">
            Power on a machine cabled to {iface ?? 'the served interface'} and let it boot from the network (PXE; F12 or the boot menu on most machines). It gets{' '}
            <Anchor component={Link} to={`/profiles/${profile.id}`}>
              {profile.name}
            </Anchor>
            . Watch it on the <Anchor component={Link} to="/">Dashboard</Anchor> and the <Anchor component={Link} to="/leases">Leases</Anchor> page.
          </Text>
        </Alert>
      )}
    </Stack>
  );
}
