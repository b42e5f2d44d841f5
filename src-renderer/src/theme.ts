import { createTheme, localStorageColorSchemeManager } from '@mantine/core';

/** Mantine theme: the system font stack, blue like the app icon, compact controls for dense tables. */
export const theme = createTheme({
  primaryColor: 'blue',
  defaultRadius: 'sm',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, Ubuntu, Cantarell, "Noto Sans", sans-serif',
  fontFamilyMonospace: 'ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", Menlo, Consolas, monospace',
  headings: { fontWeight: '650' },
});

/** Light, dark or the system's choice, remembered per browser (and per desktop profile). */
export const colorSchemeManager = localStorageColorSchemeManager({ key: 'bootwright-color-scheme' });
