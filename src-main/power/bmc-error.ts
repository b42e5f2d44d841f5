import { AppError, errorMessage, isAppError } from '../core/errors.js';

import type { BmcErrorReason } from './power-contract.js';

/** Why talking to a BMC failed, as the API reports it (`reason`): listed in the contract. */
export { BMC_ERROR_REASONS, type BmcErrorReason } from './power-contract.js';

/** A failure of a BMC conversation (IPMI or Redfish), with a precise reason. Never carries credentials. */
export class BmcError extends Error {
  override name = 'BmcError';
  readonly reason: BmcErrorReason;

  constructor(reason: BmcErrorReason, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
  }
}

export function isBmcError(err: unknown): err is BmcError {
  return err instanceof BmcError;
}

/** The reason of any failure: a BmcError's own, otherwise "protocol". */
export function bmcReason(err: unknown): BmcErrorReason {
  return isBmcError(err) ? err.reason : 'protocol';
}

/** A BMC failure as an API error: 502 UPSTREAM_FAILED with the reason in details. AppErrors pass through. */
export function bmcAppError(err: unknown): AppError {
  if (isAppError(err)) return err;
  const reason = bmcReason(err);
  return new AppError('UPSTREAM_FAILED', `BMC ${reason.replace(/_/g, ' ')}: ${errorMessage(err)}`, {
    details: [{ field: 'bmc', message: reason }],
    cause: err,
  });
}
