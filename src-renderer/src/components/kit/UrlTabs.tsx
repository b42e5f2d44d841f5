import { Tabs } from '@mantine/core';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';

export interface UrlTab {
  /** The `?tab=` value (the first tab has none). */
  value: string;
  label: ReactNode;
  panel: ReactNode;
}

/**
 * A page's tabs with the open one kept in `?tab=`, so a reload or a shared
 * link opens the same tab. The first tab is the default and leaves the URL
 * bare. Switching replaces the whole query string: the other tab's table
 * parameters (page, search, filters) do not apply to the new one.
 */
export function UrlTabs({ tabs }: { tabs: readonly UrlTab[] }) {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const first = tabs[0]?.value;
  const tab = tabs.find((candidate) => candidate.value === requested)?.value ?? first;
  return (
    <Tabs value={tab} onChange={(value) => setParams(value && value !== first ? { tab: value } : {}, { replace: true })} keepMounted={false}>
      <Tabs.List mb="md">
        {tabs.map((candidate) => (
          <Tabs.Tab key={candidate.value} value={candidate.value}>
            {candidate.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {tabs.map((candidate) => (
        <Tabs.Panel key={candidate.value} value={candidate.value}>
          {candidate.panel}
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}
