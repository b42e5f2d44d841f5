import { BmcError } from '../bmc-error.js';
import { Command } from './commands.js';
import { checkCompletion, exchangeOptions, type IpmiSession, type IpmiTiming } from './ipmi-session.js';
import { bmcRequest, type LanMessage } from './lan-message.js';
import type { UdpExchange } from './udp-exchange.js';

/** Per-request time budget: one attempt's wait and how often to resend. */
export interface AttemptOptions {
  attemptMs: number;
  retries: number;
}

/**
 * What an activated session does the same whatever its wire format (v1.5
 * signed or RMCP+ sealed): numbering requests (rqSeq, 6 bits, §13.8),
 * checking the completion code, refusing requests once closed, and closing
 * on the BMC. Subclasses only put one request on the wire and return the
 * response that matches it.
 */
export abstract class EstablishedSession implements IpmiSession {
  abstract readonly description: string;
  abstract readonly cipherSuite: number | null;
  protected readonly exchange: UdpExchange;
  protected readonly target: string;
  protected readonly timing: IpmiTiming;
  /** The id the BMC knows the session by (Close Session names it). */
  private readonly closeId: number;
  private requestSeq = 0;
  private closed = false;

  protected constructor(exchange: UdpExchange, target: string, timing: IpmiTiming, closeId: number) {
    this.exchange = exchange;
    this.target = target;
    this.timing = timing;
    this.closeId = closeId;
  }

  request(netFn: number, cmd: number, data: Buffer = Buffer.alloc(0)): Promise<Buffer> {
    return this.send(netFn, cmd, data, exchangeOptions(this.timing));
  }

  /**
   * Close Session (§22.19) with one short attempt and no error (a BMC that
   * does not answer drops the session on its own timeout), then the socket.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    try {
      const data = Buffer.alloc(4);
      data.writeUInt32LE(this.closeId);
      const once = { attemptMs: Math.min(1_000, exchangeOptions(this.timing).attemptMs), retries: 0 };
      await this.send(Command.CLOSE_SESSION.netFn, Command.CLOSE_SESSION.cmd, data, once).catch(() => undefined);
    } finally {
      this.closed = true;
      this.exchange.close();
    }
  }

  /** Sends `request` inside the session and resolves with the response that answers it. */
  protected abstract transmit(request: LanMessage, options: AttemptOptions): Promise<LanMessage>;

  private async send(netFn: number, cmd: number, data: Buffer, options: AttemptOptions): Promise<Buffer> {
    if (this.closed) throw new BmcError('protocol', `${this.target}: the session is closed`);
    this.requestSeq = (this.requestSeq + 1) & 0x3f;
    const response = await this.transmit(bmcRequest(netFn, cmd, this.requestSeq, data), options);
    return checkCompletion(response.data, `command ${netFn.toString(16)}h/${cmd.toString(16)}h`, this.target);
  }
}
