import { Alert, List, Text } from '@mantine/core';
import type { LineMarker } from '../../editor/line-markers.js';

/** One finding of a checker, whatever checked it (answer-file validation, script checks). */
export interface CheckIssue {
  severity: 'error' | 'warning';
  line: number | null;
  column?: number | null;
  message: string;
}

/** The issues that have a line, as editor markers (the editor marks the lines the list names). */
export function checkIssueMarkers(issues: readonly CheckIssue[] | undefined): LineMarker[] {
  return (issues ?? []).flatMap((issue) => (issue.line === null ? [] : [{ line: issue.line, severity: issue.severity, message: issue.message }]));
}

function where(issue: CheckIssue): string {
  if (issue.line === null) return '';
  return issue.column === null || issue.column === undefined ? `Line ${issue.line}: ` : `Line ${issue.line}, column ${issue.column}: `;
}

/** A check result: `cleanText` when nothing was found, else the issues with their lines; red when `ok` is false. */
export function CheckIssues({ issues, ok, title, cleanText, listLabel }: { issues: readonly CheckIssue[]; ok: boolean; title: string; cleanText: string; listLabel: string }) {
  if (issues.length === 0) {
    return (
      <Alert color="teal" title={title} role="status">
        {cleanText}
      </Alert>
    );
  }
  const errors = issues.filter((issue) => issue.severity === 'error').length;
  const warnings = issues.length - errors;
  return (
    <Alert color={ok ? 'yellow' : 'red'} title={`${title}: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`} role="alert">
      <List size="sm" spacing={2} aria-label={listLabel}>
        {issues.map((issue, index) => (
          <List.Item key={index} data-line={issue.line ?? undefined}>
            <Text span size="sm" fw={500} c={issue.severity === 'error' ? 'red' : 'yellow.8'}>
              {issue.severity}
            </Text>{' '}
            <Text span size="sm">
              {where(issue)}
              {issue.message}
            </Text>
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
