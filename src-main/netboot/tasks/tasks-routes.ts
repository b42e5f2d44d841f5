import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { roleAllows } from '../../core/http-kit/access.js';
import { IdParams, ListQueryProperties, Ok, OkList } from '../../core/http-kit/schemas.js';
import { MAC_INPUT_PATTERN } from '../../core/mac.js';
import { ProfileSchema } from '../../profiles/profiles-contract.js';
import type { Profile } from '../../profiles/profile-types.js';
import { InstallTaskSchema, ProfileFromNetbootSchema, TASK_STATES, TaskCreateSchema, TaskUpdateSchema, type InstallTask, type ProfileFromNetboot } from '../netboot-contract.js';
import type { InstallTaskService } from './install-task-service.js';
import type { TaskRow } from './task-types.js';

const TaskListQuery = Type.Object(
  {
    ...ListQueryProperties,
    state: Type.Optional(Type.Enum([...TASK_STATES])),
    mac: Type.Optional(Type.String({ pattern: MAC_INPUT_PATTERN, description: 'Tasks of this MAC (any common spelling)' })),
    host_id: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);

/** What the task routes call: the tasks service and the view (answer URL for operators, timeline). */
export interface TaskRouteOperations {
  tasks: Pick<InstallTaskService, 'list' | 'require' | 'create' | 'update' | 'remove'>;
  view(row: TaskRow, options: { operator: boolean; full: boolean }): Promise<InstallTask>;
  profileFromNetboot(input: ProfileFromNetboot, author: string): Promise<Profile>;
}

function isOperator(request: FastifyRequest): boolean {
  return request.principal !== null && roleAllows(request.principal.role, 'operator');
}

/** Install tasks (docs/netboot.md, "Install tasks and the PXE runtime endpoints") and POST /profiles/from-netboot. */
export function taskRoutes(ops: TaskRouteOperations): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: Static<typeof TaskListQuery> }>(
      '/netboot/tasks',
      {
        config: { access: 'viewer' },
        schema: {
          tags: ['netboot'],
          summary: 'List install tasks, newest first (filters state, mac, host_id; q matches MAC, distro, state, message); timelines hold the tasks\' own transitions',
          querystring: TaskListQuery,
          response: { 200: OkList(InstallTaskSchema) },
        },
      },
      async (request) => {
        const page = ops.tasks.list(request.query);
        const operator = isOperator(request);
        return { success: true as const, data: await Promise.all(page.data.map((row) => ops.view(row, { operator, full: false }))), meta: page.meta };
      },
    );

    app.post<{ Body: Static<typeof TaskCreateSchema> }>(
      '/netboot/tasks',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['netboot'],
          summary: 'Create an install task: host_id or mac, a catalog entry (version and arch default), an answer template of the entry\'s kind (default its preset); 409 when the MAC already has an active task',
          body: TaskCreateSchema,
          response: { 201: Ok(InstallTaskSchema) },
        },
      },
      async (request, reply) => {
        const row = await ops.tasks.create(request.body);
        return reply.code(201).send({ success: true as const, data: await ops.view(row, { operator: true, full: true }) });
      },
    );

    app.get<{ Params: Static<typeof IdParams> }>(
      '/netboot/tasks/:id',
      {
        config: { access: 'viewer' },
        schema: { tags: ['netboot'], summary: 'Get an install task with its timeline (answer_url for operators only)', params: IdParams, response: { 200: Ok(InstallTaskSchema) } },
      },
      async (request) => ({ success: true as const, data: await ops.view(ops.tasks.require(request.params.id), { operator: isOperator(request), full: true }) }),
    );

    app.put<{ Params: Static<typeof IdParams>; Body: Static<typeof TaskUpdateSchema> }>(
      '/netboot/tasks/:id',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['netboot'],
          summary: 'Update an install task: cancel (state cancelled), restart a failed, cancelled or expired one (state pending: new token), or change template, variables, after_install, expiry while it is not final',
          params: IdParams,
          body: TaskUpdateSchema,
          response: { 200: Ok(InstallTaskSchema) },
        },
      },
      async (request) => ({ success: true as const, data: await ops.view(await ops.tasks.update(request.params.id, request.body), { operator: true, full: true }) }),
    );

    app.delete<{ Params: Static<typeof IdParams> }>(
      '/netboot/tasks/:id',
      {
        config: { access: 'operator' },
        schema: { tags: ['netboot'], summary: 'Delete an install task (in any state; a machine it sent to its local disk follows its host profile again)', params: IdParams, response: { 200: Ok(InstallTaskSchema) } },
      },
      async (request) => {
        const row = await ops.tasks.remove(request.params.id);
        return { success: true as const, data: await ops.view(row, { operator: true, full: false }) };
      },
    );

    app.post<{ Body: Static<typeof ProfileFromNetbootSchema> }>(
      '/profiles/from-netboot',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['netboot'],
          summary: 'Create a linux profile that boots a catalog entry\'s installer interactively (no answer file: unattended installs are install tasks)',
          body: ProfileFromNetbootSchema,
          response: { 201: Ok(ProfileSchema) },
        },
      },
      async (request, reply) => reply.code(201).send({ success: true as const, data: await ops.profileFromNetboot(request.body, request.principal?.username ?? 'unknown') }),
    );
  };
}
