import { Text } from '@mantine/core';

export interface DiffLine {
  kind: 'header' | 'hunk' | 'add' | 'del' | 'context' | 'note';
  text: string;
  oldLine: number | null;
  newLine: number | null;
}

/** A unified diff (the API's `script-diff`) as lines with their old and new line numbers. */
export function parseUnifiedDiff(diff: string): DiffLine[] {
  const lines: DiffLine[] = [];
  let oldLine = 0;
  let newLine = 0;
  for (const text of diff.replace(/\n$/, '').split('\n')) {
    if (text.startsWith('---') || text.startsWith('+++') || text.startsWith('Index:') || text.startsWith('====')) {
      lines.push({ kind: 'header', text, oldLine: null, newLine: null });
      continue;
    }
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text);
    if (hunk) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      lines.push({ kind: 'hunk', text, oldLine: null, newLine: null });
    } else if (text.startsWith('+')) {
      lines.push({ kind: 'add', text: text.slice(1), oldLine: null, newLine: newLine++ });
    } else if (text.startsWith('-')) {
      lines.push({ kind: 'del', text: text.slice(1), oldLine: oldLine++, newLine: null });
    } else if (text.startsWith('\\')) {
      lines.push({ kind: 'note', text, oldLine: null, newLine: null });
    } else {
      lines.push({ kind: 'context', text: text.slice(1), oldLine: oldLine++, newLine: newLine++ });
    }
  }
  return lines;
}

const MARKS: Record<DiffLine['kind'], string> = { add: '+', del: '−', context: ' ', hunk: '', header: '', note: '' };
const SPOKEN: Partial<Record<DiffLine['kind'], string>> = { add: 'added: ', del: 'removed: ' };

/** The diff between two script versions, coloured by line, with a text marker (+/−) for those who cannot see colour. */
export function DiffView({ diff, label }: { diff: string; label: string }) {
  const lines = parseUnifiedDiff(diff);
  const changed = lines.some((line) => line.kind === 'add' || line.kind === 'del');
  if (!changed) return <Text c="dimmed">The two versions have the same script.</Text>;
  return (
    <div className="diff-view" role="region" aria-label={label} tabIndex={0}>
      <table>
        <tbody>
          {lines.map((line, index) => (
            <tr key={index} className={`diff-${line.kind}`}>
              <td className="diff-num" aria-hidden="true">
                {line.oldLine ?? ''}
              </td>
              <td className="diff-num" aria-hidden="true">
                {line.newLine ?? ''}
              </td>
              <td className="diff-mark" aria-hidden="true">
                {MARKS[line.kind]}
              </td>
              <td className="diff-text">
                {SPOKEN[line.kind] && <span className="visually-hidden">{SPOKEN[line.kind]}</span>}
                {line.text}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
