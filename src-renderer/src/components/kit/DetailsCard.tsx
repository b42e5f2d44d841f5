import { Card, Table, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export interface DetailsCardProps {
  /** The heading's id (the card is labelled by it). */
  id: string;
  title: string;
  /** The table's caption for screen readers. */
  caption: string;
  rows: readonly (readonly [label: string, value: ReactNode])[];
  /** Width of the label column. */
  labelWidth?: number;
}

/** A card with a label/value table: the "Details" of a detail page. */
export function DetailsCard({ id, title, caption, rows, labelWidth = 160 }: DetailsCardProps) {
  return (
    <Card withBorder component="section" aria-labelledby={id}>
      <Title order={2} size="h4" id={id} mb="sm">
        {title}
      </Title>
      <Table variant="vertical" layout="fixed">
        <caption className="visually-hidden">{caption}</caption>
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w={labelWidth}>{label}</Table.Th>
              <Table.Td>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}
