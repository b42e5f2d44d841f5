import type { ValidationResult } from '@contracts/netboot';
import { CheckIssues, checkIssueMarkers } from '../../components/kit/CheckIssues.js';
import type { LineMarker } from '../../editor/line-markers.js';

/** The issues that have a line, as editor markers. */
export function issueMarkers(result: ValidationResult | null): LineMarker[] {
  return checkIssueMarkers(result?.issues);
}

/** A validation result: "valid" or the list of issues, each with its line (the editor marks the same lines). */
export function ValidationIssues({ result, title = 'Validation' }: { result: ValidationResult; title?: string }) {
  return (
    <CheckIssues issues={result.issues} ok={result.valid} title={title} cleanText="No issue found: the template renders and the answer file reads as valid." listLabel="Validation issues" />
  );
}
