import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { Type, type Static } from 'typebox';
import { AppError, errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { IdParams, ListQueryProperties, Ok, OkList, StrictObject } from '../../core/http-kit/schemas.js';
import { unmapIpv4 } from '../../network/ip-math.js';
import {
  AssignedBaselineSchema,
  BaselineRunSchema,
  BaselineTokenCreatedSchema,
  BaselineTokenCreateSchema,
  BaselineTokenSchema,
  HostInventorySchema,
  MAX_INVENTORY_BYTES,
  MAX_BASELINE_SCRIPTS,
  MAX_OUTPUT_TAIL_CHARS,
  RUN_STATUSES,
  ResultsReportSchema,
  SCRIPT_RESULT_STATUSES,
  type ResultsReport,
} from '../baselines-contract.js';
import { powershellRunner, scriptManifest, shellRunner } from './runtime-runners.js';
import type { BaselineRuntimeService } from './runtime-service.js';
import { outputTail } from './runtime-runs.js';
import { tokenView } from './runtime-tokens.js';

/** JSON results: 64 tails of 8 K characters, JSON-escaped (control characters take six bytes each). */
export const RESULTS_BODY_LIMIT_BYTES = 1024 * 1024;
/** A raw report is one tail; a runner sends `tail -c` of it, room is left for a client that sends a little more. */
export const REPORT_BODY_LIMIT_BYTES = 64 * 1024;

const TokenQuery = StrictObject({
  ...ListQueryProperties,
  host_id: Type.Optional(Type.Integer({ minimum: 1 })),
  task_id: Type.Optional(Type.Integer({ minimum: 1 })),
});
const RunsQuery = TokenQuery;

/** Loose on purpose: a malformed token is refused like a wrong one (404), not with a 400 that tells them apart. */
const TokenParams = StrictObject({ token: Type.String({ minLength: 1, maxLength: 256 }) });
const ScriptParams = StrictObject({ token: Type.String({ minLength: 1, maxLength: 256 }), position: Type.Integer({ minimum: 1, maximum: MAX_BASELINE_SCRIPTS }) });
const ReportQuery = StrictObject({
  run_id: Type.Optional(Type.Integer({ minimum: 1 })),
  position: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_BASELINE_SCRIPTS })),
  script_id: Type.Optional(Type.Integer({ minimum: 1 })),
  status: Type.Optional(Type.Enum([...SCRIPT_RESULT_STATUSES])),
  /** A string: the sh runner sends `exit_code=` (empty) for a step that ran nothing. */
  exit_code: Type.Optional(Type.String({ pattern: '^(-?[0-9]{1,10})?$' })),
  duration_ms: Type.Optional(Type.Integer({ minimum: 0 })),
  finished: Type.Optional(Type.Enum(['0', '1', 'true', 'false'])),
});
const ReportAnswer = Type.Object({ run_id: Type.Integer(), status: Type.Enum([...RUN_STATUSES]) });
const Text = (description: string) => ({ content: { 'text/plain': { schema: Type.String({ description }) } } });

/** Public like the /boot/ files; not audited (a run's requests are its events); the paths hold tokens. */
const RUNTIME = { access: 'public' as const, machineRuntime: true };
const TAGS = ['baselines'];

/** Tokens (operators) and runs (viewers): GET/POST /baselines/tokens, DELETE /baselines/tokens/{id}, GET /baselines/runs[/{id}]. */
export function runtimeAdminRoutes(runtime: BaselineRuntimeService): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: Static<typeof TokenQuery> }>(
      '/baselines/tokens',
      {
        config: { access: 'operator' },
        schema: { tags: TAGS, summary: 'List baseline runtime tokens (never their secrets), by host or task', querystring: TokenQuery, response: { 200: OkList(BaselineTokenSchema) } },
      },
      async (request) => ({ success: true as const, ...runtime.tokens.list(request.query) }),
    );

    app.post<{ Body: Static<typeof BaselineTokenCreateSchema> }>(
      '/baselines/tokens',
      {
        config: { access: 'operator' },
        schema: {
          tags: TAGS,
          summary: 'Create a runtime token for a host (and install task): it reads only that host\'s assigned baseline and reports its results; the secret and runner URLs are shown once',
          body: BaselineTokenCreateSchema,
          response: { 201: Ok(BaselineTokenCreatedSchema) },
        },
      },
      async (request, reply) => {
        const created = await runtime.createToken(request.body, request.principal?.username ?? 'unknown', unmapIpv4(request.ip));
        request.auditDetail = { token_id: String(created.token_info.id), host_id: String(created.token_info.host_id), task_id: created.token_info.task_id === null ? null : String(created.token_info.task_id) };
        return reply.code(201).send({ success: true as const, data: created });
      },
    );

    app.delete<{ Params: Static<typeof IdParams> }>(
      '/baselines/tokens/:id',
      {
        config: { access: 'operator' },
        schema: { tags: TAGS, summary: 'Revoke a runtime token (its URLs answer 404 from now on); returns it', params: IdParams, response: { 200: Ok(BaselineTokenSchema) } },
      },
      async (request) => {
        const row = await runtime.tokens.revoke(request.params.id);
        request.auditDetail = { host_id: String(row.host_id) };
        return { success: true as const, data: tokenView(row) };
      },
    );

    app.get<{ Querystring: Static<typeof RunsQuery> }>(
      '/baselines/runs',
      {
        config: { access: 'viewer' },
        schema: { tags: TAGS, summary: 'Baseline runs reported by machines, newest first, by host or install task', querystring: RunsQuery, response: { 200: OkList(BaselineRunSchema) } },
      },
      async (request) => ({ success: true as const, ...runtime.runs.list(request.query) }),
    );

    app.get<{ Params: Static<typeof IdParams> }>(
      '/baselines/runs/:id',
      {
        config: { access: 'viewer' },
        schema: { tags: TAGS, summary: 'One baseline run with each script\'s status, exit code and output tail', params: IdParams, response: { 200: Ok(BaselineRunSchema) } },
      },
      async (request) => ({ success: true as const, data: runtime.runs.get(request.params.id) }),
    );

    app.get<{ Params: Static<typeof IdParams> }>(
      '/hosts/:id/inventory',
      {
        config: { access: 'viewer' },
        schema: { tags: ['hosts'], summary: 'The last hardware inventory the host posted from its baseline (summary and the document as posted); null until it reports one', params: IdParams, response: { 200: Ok(Type.Union([HostInventorySchema, Type.Null()])) } },
      },
      async (request) => ({ success: true as const, data: runtime.inventoryOf(request.params.id) }),
    );
  };
}

/**
 * The machine-facing runtime under /baselines/runtime/{token}/: no API
 * credentials, the token in the path is the only one. Every request is
 * counted per source before the token is looked at and per token after;
 * a bad, expired or revoked token and a deleted host all answer the same 404.
 * Unexpected errors are logged by route, never by URL (it holds the token).
 */
export function runtimePublicRoutes(runtime: BaselineRuntimeService, log: Logger): FastifyPluginAsync {
  const guarded = async <T>(route: string, ip: string, work: () => Promise<T>): Promise<T> => {
    runtime.admit(ip);
    try {
      return await work();
    } catch (err) {
      if (err instanceof AppError) throw err;
      log.scope('baselines-runtime').error(`baselines runtime ${route} from ${ip} failed: ${errorMessage(err)}`);
      throw new AppError('INTERNAL', 'internal error');
    }
  };
  const text = (reply: FastifyReply, type: string, body: string) => reply.header('cache-control', 'no-store').type(type).send(body);

  return async (app) => {
    app.get<{ Params: Static<typeof TokenParams> }>(
      '/baselines/runtime/:token/run.sh',
      { config: RUNTIME, schema: { tags: TAGS, summary: 'Runtime (token in the path): the POSIX sh runner of the token\'s host; pipe it to sh', params: TokenParams, response: { 200: Text('A POSIX sh script') } } },
      async (request, reply) => {
        const ip = unmapIpv4(request.ip);
        const body = await guarded('run.sh', ip, async () => {
          const row = await runtime.authorize(request.params.token);
          return shellRunner(runtime.urlFor(request.params.token, ip), runtime.hostLabel(row));
        });
        return text(reply, 'text/x-shellscript; charset=utf-8', body);
      },
    );

    app.get<{ Params: Static<typeof TokenParams> }>(
      '/baselines/runtime/:token/run.ps1',
      { config: RUNTIME, schema: { tags: TAGS, summary: 'Runtime (token in the path): the PowerShell runner of the token\'s host', params: TokenParams, response: { 200: Text('A PowerShell script') } } },
      async (request, reply) => {
        const ip = unmapIpv4(request.ip);
        const body = await guarded('run.ps1', ip, async () => {
          const row = await runtime.authorize(request.params.token);
          return powershellRunner(runtime.urlFor(request.params.token, ip), runtime.hostLabel(row));
        });
        return text(reply, 'text/plain; charset=utf-8', body);
      },
    );

    app.get<{ Params: Static<typeof TokenParams> }>(
      '/baselines/runtime/:token/scripts',
      { config: RUNTIME, schema: { tags: TAGS, summary: 'Runtime (token in the path): the baseline assigned to the token\'s host, scripts rendered with their SHA-256', params: TokenParams, response: { 200: Ok(AssignedBaselineSchema) } } },
      async (request, reply) => {
        const ip = unmapIpv4(request.ip);
        const data = await guarded('scripts', ip, async () => runtime.assigned(await runtime.authorize(request.params.token)));
        return reply.header('cache-control', 'no-store').send({ success: true as const, data });
      },
    );

    app.get<{ Params: Static<typeof TokenParams> }>(
      '/baselines/runtime/:token/scripts.txt',
      { config: RUNTIME, schema: { tags: TAGS, summary: 'Runtime (token in the path): the steps one per line (position sha256 continue_on_error timeout_seconds kind script_id name), for runners without a JSON parser', params: TokenParams, response: { 200: Text('The step list') } } },
      async (request, reply) => {
        const ip = unmapIpv4(request.ip);
        const body = await guarded('scripts.txt', ip, async () => scriptManifest(await runtime.assigned(await runtime.authorize(request.params.token))));
        return text(reply, 'text/plain; charset=utf-8', body);
      },
    );

    app.get<{ Params: Static<typeof ScriptParams> }>(
      '/baselines/runtime/:token/script/:position',
      { config: RUNTIME, schema: { tags: TAGS, summary: 'Runtime (token in the path): one step\'s rendered script, as is', params: ScriptParams, response: { 200: Text('The script') } } },
      async (request, reply) => {
        const ip = unmapIpv4(request.ip);
        const script = await guarded('script', ip, async () => runtime.script(await runtime.authorize(request.params.token), request.params.position));
        return text(reply, 'text/plain; charset=utf-8', script.content);
      },
    );

    app.post<{ Params: Static<typeof TokenParams>; Body: ResultsReport }>(
      '/baselines/runtime/:token/results',
      {
        config: RUNTIME,
        bodyLimit: RESULTS_BODY_LIMIT_BYTES,
        schema: {
          tags: TAGS,
          summary: 'Runtime (token in the path): report results (JSON); without run_id a new run starts; finished closes it',
          params: TokenParams,
          body: ResultsReportSchema,
          response: { 200: Ok(ReportAnswer) },
        },
      },
      async (request) => {
        const ip = unmapIpv4(request.ip);
        const data = await guarded('results', ip, async () => runtime.report(await runtime.authorize(request.params.token), request.body, ip));
        return { success: true as const, data };
      },
    );

    app.post<{ Params: Static<typeof TokenParams>; Body: Record<string, unknown> }>(
      '/baselines/runtime/:token/inventory',
      {
        config: RUNTIME,
        bodyLimit: MAX_INVENTORY_BYTES,
        schema: {
          tags: TAGS,
          summary: 'Runtime (token in the path): the host\'s hardware inventory (a JSON object: lshw, disks, links, dmidecode…); replaces the last one',
          params: TokenParams,
          body: Type.Object({}, { additionalProperties: true, description: 'Any JSON object (at most 2 MiB)' }),
          response: { 200: Ok(Type.Object({ host_id: Type.Integer(), received_at: Type.String(), bytes: Type.Integer() })) },
        },
      },
      async (request) => {
        const ip = unmapIpv4(request.ip);
        const bytes = Number(request.headers['content-length'] ?? JSON.stringify(request.body).length);
        const saved = await guarded('inventory', ip, async () => runtime.saveInventory(await runtime.authorize(request.params.token), request.body, bytes, ip));
        return { success: true as const, data: { host_id: saved.host_id, received_at: saved.received_at, bytes: saved.bytes } };
      },
    );

    // The sh runner's report: the fields in the query, the output tail as the raw body (any content type).
    await app.register(async (raw) => {
      raw.removeAllContentTypeParsers();
      raw.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: REPORT_BODY_LIMIT_BYTES }, (_request, body, done) => done(null, body));
      raw.post<{ Params: Static<typeof TokenParams>; Querystring: Static<typeof ReportQuery> }>(
        '/baselines/runtime/:token/report',
        {
          config: RUNTIME,
          bodyLimit: REPORT_BODY_LIMIT_BYTES,
          schema: {
            tags: TAGS,
            summary: 'Runtime (token in the path), for sh runners: start a run (no query), report one step (position, script_id, status, exit_code, duration_ms; body: its output tail, raw) or finish (finished=1); answers "<run_id> <status>"',
            params: TokenParams,
            querystring: ReportQuery,
            response: { 200: Text('"<run_id> <status>" and a newline') },
          },
        },
        async (request, reply) => {
          const ip = unmapIpv4(request.ip);
          const answer = await guarded('report', ip, async () => {
            const row = await runtime.authorize(request.params.token);
            return runtime.report(row, rawReport(request.query, request.body), ip);
          });
          return text(reply, 'text/plain; charset=utf-8', `${answer.run_id} ${answer.status}\n`);
        },
      );
    });
  };
}

/** The raw report as a ResultsReport: a step needs position, script_id and status together. */
export function rawReport(query: Static<typeof ReportQuery>, body: unknown): ResultsReport {
  const finished = query.finished === '1' || query.finished === 'true';
  const given = [query.position, query.script_id, query.status].filter((value) => value !== undefined).length;
  if (given !== 0 && given !== 3) throw new AppError('VALIDATION_FAILED', 'querystring: a step report needs position, script_id and status', { details: [{ field: 'querystring', message: 'position, script_id and status go together' }] });
  const report: ResultsReport = { results: [], ...(query.run_id !== undefined ? { run_id: query.run_id } : {}), ...(finished ? { finished } : {}) };
  if (query.position !== undefined && query.script_id !== undefined && query.status !== undefined) {
    if (query.run_id === undefined) throw new AppError('VALIDATION_FAILED', 'querystring.run_id: a step report names its run', { details: [{ field: 'querystring.run_id', message: 'required with position' }] });
    const output = Buffer.isBuffer(body) ? body.toString('utf8') : '';
    report.results.push({
      position: query.position,
      script_id: query.script_id,
      status: query.status,
      exit_code: query.exit_code === undefined || query.exit_code === '' ? null : Number(query.exit_code),
      duration_ms: query.duration_ms ?? 0,
      output_tail: outputTail(output, MAX_OUTPUT_TAIL_CHARS),
    });
  }
  return report;
}
