import { ActionIcon, Button, Card, Divider, Group, NumberInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { DhcpForm } from './dhcp-form-model.js';
import { DhcpOptionsEditor } from './DhcpOptionsEditor.js';

/** One served subnet: its pools, the usual options and custom options. */
export function SubnetEditor({ form, index, readOnly, onRemove }: { form: UseFormReturnType<DhcpForm>; index: number; readOnly: boolean; onRemove: () => void }) {
  const subnet = form.getValues().subnets[index];
  if (!subnet) return null;
  const at = (field: string) => `subnets.${index}.${field}`;
  const name = subnet.subnet || `subnet ${index + 1}`;
  return (
    <Card withBorder padding="sm" component="fieldset" className="subnet-card" aria-label={`Subnet ${name}`}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-end">
          <TextInput label="Subnet (CIDR)" placeholder="192.168.50.0/24" w={220} disabled={readOnly} {...form.getInputProps(at('subnet'))} />
          {!readOnly && (
            <Button variant="subtle" color="red" size="xs" onClick={onRemove} aria-label={`Remove subnet ${name}`}>
              Remove subnet
            </Button>
          )}
        </Group>
        <div>
          <Text size="sm" fw={500}>
            Address pools
          </Text>
          <Text size="xs" c="dimmed" mb={4}>
            Inclusive ranges handed out dynamically; none means reservations only.
          </Text>
          <Stack gap={6}>
            {subnet.ranges.map((_, r) => (
              <Group key={r} gap="xs" align="flex-start" wrap="nowrap">
                <TextInput aria-label={`Pool ${r + 1} first address (${name})`} placeholder="First address" disabled={readOnly} {...form.getInputProps(at(`ranges.${r}.start`))} />
                <Text pt={6} aria-hidden="true">
                  –
                </Text>
                <TextInput aria-label={`Pool ${r + 1} last address (${name})`} placeholder="Last address" disabled={readOnly} {...form.getInputProps(at(`ranges.${r}.end`))} />
                {!readOnly && (
                  <ActionIcon variant="default" size="lg" aria-label={`Remove pool ${r + 1} (${name})`} onClick={() => form.removeListItem(at('ranges'), r)}>
                    <span aria-hidden="true">×</span>
                  </ActionIcon>
                )}
              </Group>
            ))}
            {!readOnly && (
              <Button variant="subtle" size="xs" w="fit-content" onClick={() => form.insertListItem(at('ranges'), { start: '', end: '' })}>
                Add pool
              </Button>
            )}
          </Stack>
        </div>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
          <TextInput label="Router (option 3)" placeholder="automatic" description='Empty: our address on this subnet; "none": no gateway' disabled={readOnly} {...form.getInputProps(at('router'))} />
          <TextInput label="DNS servers (option 6)" placeholder="automatic" description='Empty: our address while DNS runs; "none": no DNS servers' disabled={readOnly} {...form.getInputProps(at('dns_servers'))} />
          <TextInput label="Domain name (option 15)" placeholder="automatic" description="Empty: the DNS local domain" disabled={readOnly} {...form.getInputProps(at('domain_name'))} />
          <TextInput label="NTP servers (option 42)" placeholder="none" disabled={readOnly} {...form.getInputProps(at('ntp_servers'))} />
          <NumberInput label="Lease time (seconds)" placeholder="default" description="Empty: the default lease time" min={10} allowDecimal={false} disabled={readOnly} {...form.getInputProps(at('lease_time_seconds'))} />
        </SimpleGrid>
        <Divider label="Custom options" labelPosition="left" />
        <DhcpOptionsEditor form={form} path={at('options')} options={subnet.options} readOnly={readOnly} owner={name} />
      </Stack>
    </Card>
  );
}
