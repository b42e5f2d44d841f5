/**
 * The show/hide button of password fields. Mantine's default name ("Toggle
 * password visibility") contains "password", so it would share the field's
 * label for assistive tech and for label lookups; this one names the action.
 */
export const TOGGLE_PROPS = { 'aria-label': 'Show or hide the typed characters' };
