import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { AppError } from '../../src-main/core/errors.js';
import { paginate } from '../../src-main/core/http-kit/list-query.js';
import { IdParams, ListQueryProperties, Ok, OkList, StrictObject } from '../../src-main/core/http-kit/schemas.js';

/**
 * A throwaway resource that exercises the API conventions in tests (it is
 * never registered by the application itself).
 */
const Widget = Type.Object({ id: Type.Integer(), name: Type.String(), size: Type.Integer(), secret: Type.Optional(Type.String()) });
const WidgetOut = Type.Object({ id: Type.Integer(), name: Type.String(), size: Type.Integer() });
type Widget = Static<typeof Widget>;
const CreateBody = StrictObject({ name: Type.String({ minLength: 1, maxLength: 64 }), size: Type.Integer({ minimum: 0 }), payload: Type.Optional(Type.String()) });
const ListQuery = StrictObject({ ...ListQueryProperties });

export function widgetsPlugin(): FastifyPluginAsync {
  const widgets: Widget[] = [];
  let nextId = 1;
  return async (app) => {
    app.get<{ Querystring: Static<typeof ListQuery> }>(
      '/widgets',
      { config: { access: 'viewer' }, schema: { querystring: ListQuery, response: { 200: OkList(WidgetOut) } } },
      async (request) => ({
        success: true as const,
        ...paginate(widgets, request.query, { sortable: ['id', 'name', 'size'], defaultSort: 'id', searchText: (w) => [w.name] }),
      }),
    );
    app.post<{ Body: Static<typeof CreateBody> }>(
      '/widgets',
      { config: { access: 'operator' }, schema: { body: CreateBody, response: { 201: Ok(WidgetOut) } } },
      async (request, reply) => {
        if (widgets.some((w) => w.name === request.body.name)) throw new AppError('CONFLICT', `widget "${request.body.name}" exists`);
        const widget = { id: nextId++, name: request.body.name, size: request.body.size, secret: 'never-leaves' };
        widgets.push(widget);
        return reply.code(201).send({ success: true as const, data: widget });
      },
    );
    app.get<{ Params: Static<typeof IdParams> }>(
      '/widgets/:id',
      { config: { access: 'viewer' }, schema: { params: IdParams, response: { 200: Ok(WidgetOut) } } },
      async (request) => {
        const widget = widgets.find((w) => w.id === request.params.id);
        if (!widget) throw new AppError('NOT_FOUND', `widget ${request.params.id} not found`);
        return { success: true as const, data: widget };
      },
    );
    app.post('/widgets/explode', { config: { access: 'operator' } }, async () => {
      throw new Error('internal detail that must not leak');
    });
    app.post('/widgets/poke', { config: { access: 'operator' }, schema: { response: { 200: Ok(Type.Boolean()) } } }, async () => ({
      success: true as const,
      data: true,
    }));
  };
}
