import { Button, Card, Group, Stepper } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../components/PageHeader.js';
import { QueryState } from '../../components/QueryState.js';
import { useApiAction, useApiQuery } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';
import { BootStep, InterfaceStep, ModeStep, PasswordStep, SubnetStep } from './SetupSteps.js';
import { candidateInterfaces } from './setup-model.js';

const STEPS = ['Admin password', 'Interface', 'DHCP mode', 'Subnet', 'Boot something'] as const;

/**
 * The first-run wizard (docs/quickstart.md): from a fresh install to a
 * machine booting, through the same APIs as the other pages. Shown to
 * admins from the dashboard until completed or skipped; Settings opens it
 * again. Every step can be left for later: nothing here is the only way.
 */
export function SetupPage() {
  const navigate = useNavigate();
  const state = useApiQuery(keys.firstRun, (api) => api.system.firstRun.get());
  const nics = useApiQuery([...keys.interfaces, 'setup'], (api) => api.network.interfaces({ size: 100 }));
  const [active, setActive] = useState(0);
  const [iface, setIface] = useState<string | null>(null);
  const [mode, setMode] = useState<'server' | 'proxy'>('server');
  const record = useApiAction((api, action: 'complete' | 'skip') => api.system.firstRun.record(action), {
    invalidate: [keys.firstRun],
    errorTitle: 'The setup state was not saved',
    onSuccess: () => void navigate('/'),
  });
  const list = nics.data?.data ?? [];
  const chosen = iface ?? candidateInterfaces(list)[0]?.name ?? null;
  const nic = list.find((candidate) => candidate.name === chosen) ?? null;

  return (
    <>
      <PageHeader
        title="First-run setup"
        description="Five steps from a fresh install to a machine booting from this server."
        actions={
          <Button variant="subtle" onClick={() => record.mutate('skip')} loading={record.isPending && record.variables === 'skip'}>
            Skip setup
          </Button>
        }
      />
      <QueryState query={state} what="the setup state">
        {(firstRun) => (
          <Card withBorder>
            <Stepper active={active} onStepClick={setActive} size="sm" allowNextStepsSelect>
              <Stepper.Step label={STEPS[0]}>
                <PasswordStep state={firstRun} />
              </Stepper.Step>
              <Stepper.Step label={STEPS[1]}>
                <QueryState query={nics} what="the network interfaces">
                  {(page) => <InterfaceStep nics={page.data} chosen={chosen} onChoose={setIface} />}
                </QueryState>
              </Stepper.Step>
              <Stepper.Step label={STEPS[2]}>{chosen ? <ModeStep iface={chosen} mode={mode} onMode={setMode} /> : 'Choose an interface first.'}</Stepper.Step>
              <Stepper.Step label={STEPS[3]}>
                <SubnetStep key={`${chosen ?? ''}/${mode}`} nic={nic} mode={mode} onSaved={() => setActive(4)} />
              </Stepper.Step>
              <Stepper.Step label={STEPS[4]}>
                <BootStep iface={chosen} />
              </Stepper.Step>
            </Stepper>
            <Group justify="space-between" mt="lg">
              <Button variant="default" disabled={active === 0} onClick={() => setActive(active - 1)}>
                Back
              </Button>
              {active < STEPS.length - 1 ? (
                <Button onClick={() => setActive(active + 1)}>Next</Button>
              ) : (
                <Button onClick={() => record.mutate('complete')} loading={record.isPending && record.variables === 'complete'}>
                  Finish setup
                </Button>
              )}
            </Group>
          </Card>
        )}
      </QueryState>
    </>
  );
}
