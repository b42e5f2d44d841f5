// @vitest-environment jsdom
import '../dom-setup.js';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { afterEach, describe, expect, it } from 'vitest';
import { lineMarkers } from '../../../../src-renderer/src/editor/line-markers.js';

const views: EditorView[] = [];
afterEach(() => {
  for (const view of views.splice(0)) view.destroy();
});

function editor(doc: string, markers: Parameters<typeof lineMarkers>[0]) {
  const parent = document.createElement('div');
  document.body.append(parent);
  const view = new EditorView({ parent, state: EditorState.create({ doc, extensions: [lineMarkers(markers)] }) });
  views.push(view);
  return view;
}

describe('editor line markers (real CodeMirror)', () => {
  it('tints the lines with issues by severity, and drops markers past the end', () => {
    const view = editor('one\ntwo\nthree\n', [
      { line: 2, severity: 'error', message: 'bad two' },
      { line: 3, severity: 'warning', message: 'odd three' },
      { line: 40, severity: 'error', message: 'gone' },
    ]);
    const lines = [...view.contentDOM.querySelectorAll('.cm-line')];
    expect(lines.map((line) => line.className.includes('cm-issue-line-error') ? 'error' : line.className.includes('cm-issue-line-warning') ? 'warning' : '')).toEqual(['', 'error', 'warning', '']);
  });

  it('puts a marker with the message in the gutter at the line', () => {
    const view = editor('one\ntwo\n', [{ line: 2, severity: 'error', message: 'bad two' }]);
    const markers = [...view.dom.querySelectorAll('.cm-issue-gutter .cm-issue-marker')];
    expect(markers.map((marker) => marker.getAttribute('aria-label'))).toEqual(['line 2: error: bad two']);
  });
});
