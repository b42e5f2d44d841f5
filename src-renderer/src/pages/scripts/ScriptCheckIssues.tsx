import type { ScriptCheck } from '@contracts/scripts';
import { CheckIssues, checkIssueMarkers } from '../../components/kit/CheckIssues.js';
import type { LineMarker } from '../../editor/line-markers.js';

/** The issues that have a line, as editor markers. */
export function checkMarkers(result: ScriptCheck | null): LineMarker[] {
  return checkIssueMarkers(result?.issues);
}

/** A script check result: "no issue" or the list of issues, each with its line (the editor marks the same lines). */
export function ScriptCheckIssues({ result }: { result: ScriptCheck }) {
  return <CheckIssues issues={result.issues} ok={result.ok} title={`Check (${result.checker})`} cleanText="No issue found." listLabel="Check issues" />;
}
