import { Type, type Static } from 'typebox';

/**
 * The API of the allowed roots of served folders (GET/PUT
 * /settings/served-roots): schemas and bounds, nothing else imported.
 */

/** Admin-set allowed roots at most, and the longest path accepted. */
export const MAX_ALLOWED_ROOTS = 32;
export const MAX_ROOT_PATH_LENGTH = 4096;

export const ServedRootsView = Type.Object(
  {
    allowed_roots: Type.Array(Type.String(), { description: 'The roots an admin allowed (real paths); what PUT replaces' }),
    effective: Type.Array(
      Type.Object({
        path: Type.String(),
        source: Type.Union([Type.Literal('built-in'), Type.Literal('config'), Type.Literal('setting')], {
          description: 'built-in: <data-dir>/boot and <data-dir>/images; config: --allowed-root / BOOTWRIGHT_ALLOWED_ROOTS / allowed_roots; setting: allowed_roots above',
        }),
        problem: Type.Union([Type.String(), Type.Null()], { description: 'Why this root is ignored right now (missing, or a forbidden folder); null when usable' }),
      }),
      { description: 'Every root served folders may lie in, with its source' },
    ),
  },
  { $id: 'ServedRoots' },
);

export const ServedRootsPatch = Type.Object(
  {
  allowed_roots: Type.Array(Type.String({ minLength: 1, maxLength: MAX_ROOT_PATH_LENGTH }), {
    maxItems: MAX_ALLOWED_ROOTS,
    description: 'Absolute paths of existing directories; never /, a system folder or the data directory (or a folder containing it)',
  }),
},
  { additionalProperties: false },
);

export type ServedRootsViewData = Static<typeof ServedRootsView>;
export type ServedRootsPatchData = Static<typeof ServedRootsPatch>;
