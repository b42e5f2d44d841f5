/**
 * Messages between the template renderer (main thread) and its worker
 * (template-worker.ts). Data travels as JSON text: templates only ever see
 * plain JSON, and a value that is not (a function) fails in the caller's
 * thread, not in structured cloning.
 */

export type TemplateJob = { op: 'render'; source: string; dataJson: string } | { op: 'check'; source: string };

export type ToTemplateWorker = TemplateJob & { seq: number };

export type TemplateWorkerFailure =
  /** A template fault or exceeded LiquidJS limit: becomes a TemplateError again. */
  | { kind: 'template'; reason: string; line: number | null; column: number | null }
  /** A bug in the worker itself. */
  | { kind: 'internal'; message: string };

export type FromTemplateWorker =
  | { type: 'ready' }
  | { type: 'done'; seq: number; output: string }
  | { type: 'failed'; seq: number; failure: TemplateWorkerFailure };
