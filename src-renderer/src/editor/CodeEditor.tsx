import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, syntaxHighlighting } from '@codemirror/language';
import { Compartment, EditorState } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from '@codemirror/view';
import { Input, useComputedColorScheme } from '@mantine/core';
import { useEffect, useId, useRef } from 'react';
import { darkHighlight, ipxeLiquid, lightHighlight } from './ipxe-language.js';
import { lineMarkers, type LineMarker } from './line-markers.js';

export interface CodeEditorProps {
  label: string;
  value: string;
  onChange?: (value: string) => void;
  readOnly?: boolean;
  description?: string;
  error?: string | null | undefined;
  /** Fixed CSS height of the editing area, e.g. "24rem" (editors people type in). */
  height?: string;
  /** Instead of a fixed height: grow with the text up to this (read-only views). */
  maxHeight?: string;
  /** Issues to mark in the gutter at their lines (a validator's result). */
  markers?: readonly LineMarker[];
}

function themeFor(scheme: 'light' | 'dark', maxHeight: string | undefined) {
  return [
    EditorView.theme(
      {
        '&': { height: maxHeight ? 'auto' : '100%', ...(maxHeight ? { maxHeight } : {}), fontSize: '13px', backgroundColor: 'var(--mantine-color-body)', color: 'var(--mantine-color-text)' },
        '.cm-scroller': { fontFamily: 'var(--mantine-font-family-monospace)', overflow: 'auto' },
        '.cm-gutters': { backgroundColor: 'var(--mantine-color-default-hover)', color: 'var(--mantine-color-dimmed)', border: 'none' },
        '.cm-activeLine, .cm-activeLineGutter': { backgroundColor: scheme === 'dark' ? '#ffffff0d' : '#0000000a' },
        '&.cm-focused': { outline: '2px solid var(--mantine-primary-color-filled)', outlineOffset: '-1px' },
        '.cm-cursor': { borderLeftColor: 'var(--mantine-color-text)' },
      },
      { dark: scheme === 'dark' },
    ),
    syntaxHighlighting(scheme === 'dark' ? darkHighlight : lightHighlight),
  ];
}

/**
 * A CodeMirror 6 editor for iPXE scripts with Liquid templates, labelled
 * like any form field. Tab indents; Escape then Tab moves focus on (the
 * CodeMirror convention that keeps the keyboard from being trapped).
 */
export function CodeEditor({ label, value, onChange, readOnly = false, description, error, height, maxHeight, markers }: CodeEditorProps) {
  const fixedHeight = maxHeight ? undefined : (height ?? '22rem');
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const theme = useRef(new Compartment());
  const editable = useRef(new Compartment());
  const marks = useRef(new Compartment());
  const scheme = useComputedColorScheme('light');
  const labelId = useId();
  const descriptionId = useId();
  const errorId = useId();

  useEffect(() => {
    if (!host.current) return;
    const created = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          marks.current.of(lineMarkers(markers ?? [])),
          lineNumbers(),
          highlightActiveLineGutter(),
          history(),
          drawSelection(),
          highlightActiveLine(),
          bracketMatching(),
          ipxeLiquid,
          keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
          theme.current.of(themeFor(scheme, maxHeight)),
          editable.current.of(EditorState.readOnly.of(readOnly)),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) onChangeRef.current?.(update.state.doc.toString());
          }),
          EditorView.contentAttributes.of({
            'aria-labelledby': labelId,
            'aria-multiline': 'true',
            role: 'textbox',
            ...(readOnly ? { 'aria-readonly': 'true' } : {}),
          }),
        ],
      }),
    });
    view.current = created;
    return () => {
      created.destroy();
      view.current = null;
    };
    // The editor is created once; value, theme and read-only follow through the effects below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const current = view.current;
    if (current && current.state.doc.toString() !== value) {
      current.dispatch({ changes: { from: 0, to: current.state.doc.length, insert: value } });
    }
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({ effects: theme.current.reconfigure(themeFor(scheme, maxHeight)) });
  }, [scheme, maxHeight]);

  useEffect(() => {
    view.current?.dispatch({ effects: editable.current.reconfigure(EditorState.readOnly.of(readOnly)) });
  }, [readOnly]);

  useEffect(() => {
    view.current?.dispatch({ effects: marks.current.reconfigure(lineMarkers(markers ?? [])) });
  }, [markers]);

  const describedBy = [description ? descriptionId : null, error ? errorId : null].filter(Boolean).join(' ');
  useEffect(() => {
    const content = view.current?.contentDOM;
    if (!content) return;
    if (describedBy) content.setAttribute('aria-describedby', describedBy);
    else content.removeAttribute('aria-describedby');
    if (error) content.setAttribute('aria-invalid', 'true');
    else content.removeAttribute('aria-invalid');
  }, [describedBy, error]);

  return (
    <Input.Wrapper
      label={<span id={labelId}>{label}</span>}
      description={description ? <span id={descriptionId}>{description}</span> : undefined}
      error={error ? <span id={errorId}>{error}</span> : undefined}
    >
      <div
        ref={host}
        className="code-editor"
        data-error={error ? 'true' : undefined}
        style={fixedHeight ? { height: fixedHeight } : undefined}
      />
    </Input.Wrapper>
  );
}
