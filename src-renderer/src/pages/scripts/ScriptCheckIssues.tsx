import { Alert, List, Text } from '@mantine/core';
import type { ScriptCheck } from '@contracts/scripts';
import type { LineMarker } from '../../editor/line-markers.js';

/** The issues that have a line, as editor markers. */
export function checkMarkers(result: ScriptCheck | null): LineMarker[] {
  return (result?.issues ?? []).flatMap((issue) => (issue.line === null ? [] : [{ line: issue.line, severity: issue.severity, message: issue.message }]));
}

/** A check result: "no issue" or the list of issues, each with its line (the editor marks the same lines). */
export function ScriptCheckIssues({ result }: { result: ScriptCheck }) {
  if (result.issues.length === 0) {
    return (
      <Alert color="teal" title={`Check (${result.checker})`} role="status">
        No issue found.
      </Alert>
    );
  }
  const errors = result.issues.filter((issue) => issue.severity === 'error').length;
  const warnings = result.issues.length - errors;
  return (
    <Alert
      color={result.ok ? 'yellow' : 'red'}
      title={`Check (${result.checker}): ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`}
      role="alert"
    >
      <List size="sm" spacing={2} aria-label="Check issues">
        {result.issues.map((issue, index) => (
          <List.Item key={index} data-line={issue.line ?? undefined}>
            <Text span size="sm" fw={500} c={issue.severity === 'error' ? 'red' : 'yellow.8'}>
              {issue.severity}
            </Text>{' '}
            <Text span size="sm">
              {issue.line === null ? '' : `Line ${issue.line}: `}
              {issue.message}
            </Text>
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
