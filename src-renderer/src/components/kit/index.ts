// The form and table pieces pages share, so each page writes only what is its own.
export { DetailLoadError, type DetailLoadErrorProps } from './DetailLoadError.js';
export { DetailsCard, type DetailsCardProps } from './DetailsCard.js';
export { DialogActions, type DialogActionsProps } from './DialogActions.js';
export { FormDialog, type FormDialogProps } from './FormDialog.js';
export { FormError } from './FormError.js';
export { SaveButtons, SettingsSaveBar, type SaveButtonsProps } from './SaveButtons.js';
export { filterOptions, TableToolbar, type FilterOption, type TableToolbarProps, type ToolbarFilter } from './TableToolbar.js';
export { UrlTabs, type UrlTab } from './UrlTabs.js';
export { CheckIssues, checkIssueMarkers, type CheckIssue } from './CheckIssues.js';
export { VersionRowActions, type VersionRowActionsProps } from './VersionRowActions.js';
