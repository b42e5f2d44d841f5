// The form and table pieces pages share, so each page writes only what is its own.
export { filterOptions, TableToolbar, type FilterOption, type TableToolbarProps, type ToolbarFilter } from './TableToolbar.js';
