import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { Type, type Static } from 'typebox';
import { AppError, errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { Ok, PrintableString, StrictObject } from '../../core/http-kit/schemas.js';
import { unmapIpv4 } from '../../network/ip-math.js';
import { RuntimeTaskSchema, TASK_STATES } from '../netboot-contract.js';
import type { RenderedAnswer } from '../netboot-ports.js';
import { CALLBACK_STATES, SEED_FILES, type RuntimeRoute, type TaskRuntime } from './task-runtime.js';

const TaskIdParam = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
/** Loose on purpose: a malformed token is refused like a wrong one (404), not with a 400 that tells them apart. */
const TokenParam = Type.String({ minLength: 1, maxLength: 256 });
const Message = PrintableString({ maxLength: 500, description: 'Optional progress message (printable, at most 500 characters)' });

const ByMacParams = StrictObject({ mac: Type.String({ maxLength: 64 }) });
const AnswerParams = StrictObject({ task_id: TaskIdParam });
const AnswerQuery = Type.Object({ token: Type.Optional(Type.String({ maxLength: 256 })) }, { additionalProperties: false });
const SeedParams = StrictObject({ task_id: TaskIdParam, token: TokenParam, file: Type.Enum([...SEED_FILES]) });
const CallbackParams = StrictObject({ task_id: TaskIdParam, token: TokenParam, state: Type.Enum([...CALLBACK_STATES]) });
const CallbackQuery = Type.Object({ message: Type.Optional(Message) }, { additionalProperties: false });
const CallbackResult = Type.Object({ task_id: Type.Integer(), state: Type.Enum([...TASK_STATES]) });
const TextAnswer = { content: { 'text/plain': { schema: Type.String({ description: 'The rendered file; its content type depends on the answer kind' }) } } };

/** Public like the /boot/ files; not audited (each request is an event); paths hold tokens (docs/netboot.md). */
const RUNTIME = { access: 'public' as const, machineRuntime: true };

/**
 * The PXE runtime endpoints: no authentication (the spec's two, plus the
 * cloud-init seed files and the progress callback, which are the same kind).
 * Errors that are not AppErrors are logged here by route pattern, never by
 * URL: the URL holds the task's token.
 */
export function runtimeRoutes(runtime: TaskRuntime, log: Logger): FastifyPluginAsync {
  const scoped = log.scope('netboot-runtime');
  const guarded = async <T>(route: RuntimeRoute, ip: string, work: () => Promise<T>): Promise<T> => {
    runtime.admit(ip, route);
    try {
      return await work();
    } catch (err) {
      if (err instanceof AppError) throw err;
      scoped.error(`netboot runtime ${route} from ${ip} failed: ${errorMessage(err)}`);
      throw new AppError('INTERNAL', 'internal error');
    }
  };
  // Server-Timing (W3C): the server's own time for this answer, from the request's arrival in fastify to now; what bench:netboot reads.
  const sendText = (reply: FastifyReply, rendered: RenderedAnswer) =>
    reply.header('cache-control', 'no-store').header('server-timing', `answer;dur=${reply.elapsedTime.toFixed(2)}`).type(rendered.content_type).send(rendered.content);

  return async (app) => {
    // Installers may POST a callback with any body (or a form): it is ignored; the message travels in the query.
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 4096 }, (_request, _body, done) => done(null, undefined));

    app.get<{ Params: Static<typeof ByMacParams> }>(
      '/netboot/task/by-mac/:mac',
      {
        config: RUNTIME,
        schema: {
          tags: ['netboot'],
          summary: 'PXE runtime (no authentication): the active install task of this MAC, only to the machine itself (its leased or last seen address); 404 otherwise',
          params: ByMacParams,
          response: { 200: Ok(RuntimeTaskSchema) },
        },
      },
      async (request, reply) => {
        const ip = unmapIpv4(request.ip);
        const data = await guarded('by-mac', ip, () => runtime.byMac(request.params.mac, ip));
        return reply.header('cache-control', 'no-store').send({ success: true as const, data });
      },
    );

    app.get<{ Params: Static<typeof AnswerParams>; Querystring: Static<typeof AnswerQuery> }>(
      '/netboot/answer/:task_id',
      {
        config: RUNTIME,
        schema: {
          tags: ['netboot'],
          summary: 'PXE runtime (no authentication): the task\'s rendered answer file; needs ?token= (404 without or wrong), 410 once the task is final',
          params: AnswerParams,
          querystring: AnswerQuery,
          response: { 200: TextAnswer },
        },
      },
      async (request, reply) => {
        const ip = unmapIpv4(request.ip);
        return sendText(reply, await guarded('answer', ip, () => runtime.answer(request.params.task_id, request.query.token, ip)));
      },
    );

    app.get<{ Params: Static<typeof SeedParams> }>(
      '/netboot/answer/:task_id/:token/:file',
      {
        config: RUNTIME,
        schema: {
          tags: ['netboot'],
          summary: 'PXE runtime (no authentication): cloud-init (nocloud-net) seed files of the task: user-data (the answer), meta-data, vendor-data',
          params: SeedParams,
          response: { 200: TextAnswer },
        },
      },
      async (request, reply) => {
        const ip = unmapIpv4(request.ip);
        const { task_id: taskId, token, file } = request.params;
        return sendText(reply, await guarded('seed', ip, () => runtime.seed(taskId, token, file, ip)));
      },
    );

    const callbackSchema = {
      tags: ['netboot'],
      summary: 'PXE runtime (no authentication): the installer reports installing, done or failed (optional ?message=); GET for busybox wget, POST for others',
      params: CallbackParams,
      querystring: CallbackQuery,
      response: { 200: Ok(CallbackResult) },
    };
    const callback = async (request: { ip: string; params: Static<typeof CallbackParams>; query: Static<typeof CallbackQuery> }) => {
      const ip = unmapIpv4(request.ip);
      const { task_id: taskId, token, state } = request.params;
      const data = await guarded('callback', ip, () => runtime.callback(taskId, token, state, request.query.message, ip));
      return { success: true as const, data };
    };
    app.get<{ Params: Static<typeof CallbackParams>; Querystring: Static<typeof CallbackQuery> }>(
      '/netboot/callback/:task_id/:token/:state',
      { config: RUNTIME, schema: callbackSchema },
      callback,
    );
    app.post<{ Params: Static<typeof CallbackParams>; Querystring: Static<typeof CallbackQuery> }>(
      '/netboot/callback/:task_id/:token/:state',
      { config: RUNTIME, schema: callbackSchema },
      callback,
    );
  };
}
