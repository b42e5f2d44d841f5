import type { Row } from '../../store/collection.js';
import type { TextVersion } from '../../core/text-versions.js';
import type { AnswerKind, AnswerTemplate } from '../netboot-contract.js';
import type { StoredSecrets } from './answer-secrets.js';

/** Store collections of the answer templates and their content history. */
export const TEMPLATES_COLLECTION = 'netboot_answer_templates';
export const VERSIONS_COLLECTION = 'netboot_answer_template_versions';

/** A stored answer template; `secrets` holds sealed values only (answer-secrets.ts), never shown. */
export interface AnswerTemplateRow extends Row {
  name: string;
  kind: AnswerKind;
  description: string;
  content: string;
  variables: Record<string, string>;
  secrets: StoredSecrets;
  preset: string | null;
  version: number;
}

/** One saved content of a template (the shared text-version shape, owned through `template_id`). */
export interface AnswerTemplateVersionRow extends TextVersion {
  template_id: number;
  content: string;
}

/** Who makes a change and why: the new version's author and comment. */
export interface AnswerChangeNote {
  author: string;
  comment?: string;
}

export const TEMPLATE_SORT_FIELDS = ['id', 'name', 'kind', 'version', 'created_at', 'updated_at'] as const satisfies readonly (keyof AnswerTemplate)[];
export const TEMPLATE_VERSION_SORT_FIELDS = ['id', 'version', 'author', 'created_at'] as const satisfies readonly (keyof AnswerTemplateVersionRow)[];
