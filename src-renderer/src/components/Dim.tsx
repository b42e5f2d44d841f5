import { Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** Secondary text at the surrounding size ("—", "all", "none" in table cells). */
export function Dim({ children = '—' }: { children?: ReactNode }) {
  return (
    <Text span c="dimmed" inherit>
      {children}
    </Text>
  );
}
