import { Type, type Static } from 'typebox';
import { nullable, StrictObject } from '../core/http-kit/common-contract.js';

/*
 * The alerts API's contract (/api/v1/alerts): what needs an operator's
 * attention now, gathered from the areas. typebox and other contracts only
 * (the renderer imports it: @contracts/alerts).
 */

export const ALERT_SEVERITIES = ['error', 'warning'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

/** Stable per condition (e.g. `service.dns`, `dhcp.foreign.eth0`): dismissing it hides that condition until it changes. */
export const ALERT_ID_PATTERN = '^[A-Za-z0-9._:/@-]{1,200}$';

export const AlertSchema = Type.Object(
  {
    id: Type.String({ description: 'Stable per condition, e.g. service.dns, dhcp.foreign.eth0, tftp.missing.10.0.0.5, bmc.4' }),
    severity: Type.Enum([...ALERT_SEVERITIES]),
    source: Type.String({ description: 'The area that raised it: services, dhcp, tftp, power, boot-files' }),
    title: Type.String({ description: 'One line' }),
    message: Type.String({ description: 'The whole story in full, with what to do' }),
    since: nullable<string>('string', { format: 'date-time', description: 'When the condition began, when known' }),
    link: nullable<string>('string', { description: 'The console page that shows or fixes it, e.g. /services/dns' }),
    dismissed: Type.Boolean({ description: 'Dismissed by an operator; it shows again when its title or message changes, or after it clears and comes back' }),
  },
  { $id: 'Alert' },
);

export const AlertListQuerySchema = Type.Object(
  { include_dismissed: Type.Optional(Type.Boolean({ description: 'Also list the dismissed ones (default false)' })) },
  { additionalProperties: false },
);

export const AlertIdParamsSchema = StrictObject({ id: Type.String({ pattern: ALERT_ID_PATTERN }) });

export type Alert = Static<typeof AlertSchema>;
/** An alert as a source raises it (the center adds `dismissed`). */
export type RaisedAlert = Omit<Alert, 'dismissed'>;
