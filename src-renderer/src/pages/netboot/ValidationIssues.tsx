import { Alert, List, Text } from '@mantine/core';
import type { ValidationIssue, ValidationResult } from '@contracts/netboot';
import type { LineMarker } from '../../editor/line-markers.js';

/** The issues that have a line, as editor markers. */
export function issueMarkers(result: ValidationResult | null): LineMarker[] {
  return (result?.issues ?? []).flatMap((issue) => (issue.line === null ? [] : [{ line: issue.line, severity: issue.severity, message: issue.message }]));
}

function where(issue: ValidationIssue): string {
  if (issue.line === null) return '';
  return issue.column === null ? `Line ${issue.line}: ` : `Line ${issue.line}, column ${issue.column}: `;
}

/** A validation result: "valid" or the list of issues, each with its line (the editor marks the same lines). */
export function ValidationIssues({ result, title = 'Validation' }: { result: ValidationResult; title?: string }) {
  if (result.issues.length === 0) {
    return (
      <Alert color="teal" title={title} role="status">
        No issue found: the template renders and the answer file reads as valid.
      </Alert>
    );
  }
  const errors = result.issues.filter((issue) => issue.severity === 'error').length;
  return (
    <Alert color={result.valid ? 'yellow' : 'red'} title={`${title}: ${errors} error${errors === 1 ? '' : 's'}, ${result.issues.length - errors} warning${result.issues.length - errors === 1 ? '' : 's'}`} role="alert">
      <List size="sm" spacing={2} aria-label="Validation issues">
        {result.issues.map((issue, index) => (
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
