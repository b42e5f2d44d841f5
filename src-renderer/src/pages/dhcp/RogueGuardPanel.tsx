import { Alert, Button, Group, List, Stack, Text } from '@mantine/core';
import { useCan } from '../../app-state.js';
import { useApiAction, useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { describeServer, guardFindings, switchToProxy } from './rogue-guard-model.js';

/**
 * The rogue-DHCP guard on the DHCP page: interfaces kept out of server mode
 * because another DHCP server answers there (with a one-click switch to proxy
 * mode, a settings change), interfaces served anyway (force), and foreign
 * servers seen while serving. Nothing when there is nothing to say.
 */
export function RogueGuardPanel() {
  const canEdit = useCan('operator');
  const guard = useApiQuery(keys.dhcpGuard, (api) => api.dhcp.guard.status());
  const settings = useApiQuery(keys.dhcpSettings, (api) => api.dhcp.settings.get());
  const toProxy = useApiAction(
    async (api, name: string) => {
      const current = await api.dhcp.settings.get();
      return api.dhcp.settings.update({ interfaces: switchToProxy(current.interfaces, name) });
    },
    { invalidate: [keys.dhcp, keys.services, keys.status], success: (_saved, name) => `${name} is in proxy mode now.` },
  );
  const findings = guardFindings(guard.data);
  const sightings = guard.data?.sightings.filter((s) => !findings.some((f) => f.interface === s.interface && f.foreign.some((server) => server.server_id === s.server_id))) ?? [];
  if (findings.length === 0 && sightings.length === 0) return null;
  const modeOf = (name: string) => settings.data?.interfaces.find((entry) => entry.name === name)?.mode ?? 'off';
  return (
    <Stack gap="xs" component="section" aria-label="Other DHCP servers">
      {findings.map((finding) => (
        <Alert key={finding.interface} color={finding.state === 'blocked' ? 'red' : 'orange'} title={`Another DHCP server answers on ${finding.interface}`}>
          <Stack gap={6}>
            <List size="sm">
              {finding.foreign.map((server) => (
                <List.Item key={server.server_id} className="mono">
                  {describeServer(server)}
                </List.Item>
              ))}
            </List>
            <Text size="sm">
              {finding.state === 'blocked'
                ? `Bootwright does not serve ${finding.interface} in server mode: two servers would hand out addresses on one network. Proxy mode boots machines beside the other server (it keeps handing out the addresses).`
                : `Served anyway because "force" is on: clients may take either server's answer.`}
            </Text>
            {canEdit && modeOf(finding.interface) === 'server' && (
              <Group>
                <Button size="xs" loading={toProxy.isPending} onClick={() => toProxy.mutate(finding.interface)}>
                  Switch {finding.interface} to proxy mode
                </Button>
              </Group>
            )}
          </Stack>
        </Alert>
      ))}
      {sightings.length > 0 && (
        <Alert color="orange" title="Other DHCP servers seen while serving">
          <List size="sm">
            {sightings.map((s) => (
              <List.Item key={`${s.interface ?? '-'}-${s.server_id}`}>
                {s.server ? describeServer(s.server) : s.server_id} on {s.interface ?? 'a served network'}
                {s.how === 'client_request' && s.client_mac ? ` (client ${s.client_mac} asked it for an address)` : ''}, last {new Date(s.last_seen).toLocaleString()}
                {s.count > 1 ? `, ${s.count} times` : ''}
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
    </Stack>
  );
}
