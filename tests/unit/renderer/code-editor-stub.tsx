import type { CodeEditorProps } from '../../../src-renderer/src/editor/CodeEditor.js';

/**
 * Stands in for the CodeMirror editor in page tests (jsdom cannot type into
 * CodeMirror): a labelled textarea with the same props.
 */
export function CodeEditor({ label, value, onChange, readOnly, error, markers }: CodeEditorProps) {
  return (
    <div>
      <label>
        {label}
        <textarea value={value} readOnly={readOnly} onChange={(event) => onChange?.(event.currentTarget.value)} aria-invalid={error ? true : undefined} />
      </label>
      {error && <span role="alert">{error}</span>}
      {markers && markers.length > 0 && (
        <ul aria-label={`${label} line markers`}>
          {markers.map((marker, index) => (
            <li key={index} data-line={marker.line} data-severity={marker.severity}>
              {marker.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
