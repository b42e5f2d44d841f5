/*
 * The templates area's contract: the limits of user-written templates that
 * the API schemas of other areas repeat (profile scripts, the entry script).
 * It imports nothing (a test checks contracts import only typebox and other
 * contracts), so the profiles and boot scripts contracts, which the renderer
 * reads, can use it.
 */

/** Characters of template source (profile scripts and the entry script; TEMPLATE_LIMITS.maxSourceChars). */
export const MAX_TEMPLATE_CHARS = 64 * 1024;
