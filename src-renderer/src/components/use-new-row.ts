import { useCallback, useEffect, useState } from 'react';
import type { RowKey } from './ServerTable.js';

/** How long a created or saved row stays marked. */
const MARKED_MS = 4000;

/**
 * The row a dialog just created or saved (issue 18): the page passes
 * `markNew` to the dialog's onSaved and `highlight` to its ServerTable,
 * which marks that row and scrolls it into view; the mark fades.
 */
export function useNewRow(): { highlight: RowKey | null; markNew: (key: RowKey) => void } {
  const [highlight, setHighlight] = useState<RowKey | null>(null);
  useEffect(() => {
    if (highlight === null) return;
    const timer = setTimeout(() => setHighlight(null), MARKED_MS);
    return () => clearTimeout(timer);
  }, [highlight]);
  const markNew = useCallback((key: RowKey) => setHighlight(key), []);
  return { highlight, markNew };
}
