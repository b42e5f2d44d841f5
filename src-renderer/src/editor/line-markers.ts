import { RangeSetBuilder, type Extension } from '@codemirror/state';
import { Decoration, EditorView, gutter, GutterMarker } from '@codemirror/view';

/** A problem reported at one line of the edited text (a validator's issue). */
export interface LineMarker {
  /** 1-based line number. */
  line: number;
  severity: 'error' | 'warning';
  message: string;
}

class IssueMarker extends GutterMarker {
  constructor(private readonly markers: readonly LineMarker[]) {
    super();
  }

  override eq(other: IssueMarker): boolean {
    return other.markers.length === this.markers.length && other.markers.every((marker, index) => marker.message === this.markers[index]?.message);
  }

  override toDOM(): Node {
    const element = document.createElement('span');
    const worst = this.markers.some((marker) => marker.severity === 'error') ? 'error' : 'warning';
    element.className = `cm-issue-marker cm-issue-${worst}`;
    // The message as a tooltip for the mouse and as text for screen readers (the issue list repeats it).
    element.title = this.markers.map((marker) => `${marker.severity}: ${marker.message}`).join('\n');
    element.setAttribute('aria-label', `line ${this.markers[0]?.line ?? ''}: ${element.title}`);
    element.textContent = worst === 'error' ? '●' : '▲';
    return element;
  }
}

/** The same width with no marker, so the gutter does not jump when the first issue appears. */
class SpacerMarker extends GutterMarker {
  override toDOM(): Node {
    const element = document.createElement('span');
    element.textContent = '●';
    return element;
  }
}

/**
 * A gutter with a marker at each line that has an issue, and the line itself
 * tinted by severity. Markers past the end of the text (the text changed
 * since validation) are dropped.
 */
export function lineMarkers(markers: readonly LineMarker[]): Extension {
  const byLine = new Map<number, LineMarker[]>();
  for (const marker of markers) byLine.set(marker.line, [...(byLine.get(marker.line) ?? []), marker]);
  return [
    gutter({
      class: 'cm-issue-gutter',
      lineMarker: (view, block) => {
        const found = byLine.get(view.state.doc.lineAt(block.from).number);
        return found ? new IssueMarker(found) : null;
      },
      lineMarkerChange: () => false,
      initialSpacer: () => new SpacerMarker(),
    }),
    EditorView.decorations.of((view) => {
      const builder = new RangeSetBuilder<Decoration>();
      const lines = [...byLine.keys()].filter((line) => line >= 1 && line <= view.state.doc.lines).sort((a, b) => a - b);
      for (const number of lines) {
        const severity = byLine.get(number)?.some((marker) => marker.severity === 'error') ? 'error' : 'warning';
        const line = view.state.doc.line(number);
        builder.add(line.from, line.from, Decoration.line({ class: `cm-issue-line-${severity}` }));
      }
      return builder.finish();
    }),
  ];
}
