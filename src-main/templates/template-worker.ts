import { parentPort } from 'node:worker_threads';
import { TemplateEngine, TemplateError, type TemplateData } from './template-engine.js';
import type { FromTemplateWorker, TemplateWorkerFailure, ToTemplateWorker } from './template-worker-protocol.js';

/**
 * The thread that parses and renders user templates, one job at a time (the
 * engine is synchronous). It keeps the engine's parse cache across jobs; the
 * main thread terminates it when a job runs too long and starts a new one.
 */
const port = parentPort;
if (!port) throw new Error('template-worker.ts must run in a worker thread');

const engine = new TemplateEngine();

port.on('message', (job: ToTemplateWorker) => {
  let reply: FromTemplateWorker;
  try {
    const output = job.op === 'render' ? engine.render(job.source, JSON.parse(job.dataJson) as TemplateData) : (engine.parse(job.source), '');
    reply = { type: 'done', seq: job.seq, output };
  } catch (err) {
    reply = { type: 'failed', seq: job.seq, failure: failureOf(err) };
  }
  port.postMessage(reply);
});

port.postMessage({ type: 'ready' } satisfies FromTemplateWorker);

function failureOf(err: unknown): TemplateWorkerFailure {
  if (err instanceof TemplateError) return { kind: 'template', reason: err.reason, line: err.line, column: err.column };
  return { kind: 'internal', message: err instanceof Error ? err.message : String(err) };
}
