/** Paging, search and sort parameters every list endpoint takes (docs/api.md). */
export interface ListParams {
  page?: number;
  size?: number;
  q?: string;
  /** `field` ascending or `-field` descending. */
  sort?: string;
}

/** One result of a batch endpoint: per item ok, or its error. */
export interface BatchItemResult {
  ok: boolean;
  error?: string | null;
  code?: string | null;
}
