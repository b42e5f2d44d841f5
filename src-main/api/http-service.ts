import type { ApiApp } from './http-app.js';
import type { ListenAddress } from '../core/config.js';
import type { ManagedService } from '../services/service-manager.js';
import { describeListenError } from '../services/listen-error.js';

/**
 * The HTTP server (REST API, web UI, boot files) as a managed service. It is
 * protected: the API that would stop it is served by it.
 */
export class HttpService implements ManagedService {
  readonly name = 'http';
  readonly description = 'HTTP: REST API, web UI and HTTP boot files';
  readonly defaultAutoStart = true;
  readonly protected = true;
  private readonly app: ApiApp;
  private readonly listen: ListenAddress;
  private readonly scheme: 'http' | 'https';
  private bound: string[] = [];

  constructor(app: ApiApp, listen: ListenAddress, scheme: 'http' | 'https') {
    this.app = app;
    this.listen = listen;
    this.scheme = scheme;
  }

  async start(): Promise<void> {
    try {
      await this.app.listen({ host: this.listen.host, port: this.listen.port });
    } catch (err) {
      throw new Error(describeListenError(err, 'tcp', this.listen.host, this.listen.port), { cause: err });
    }
    const address = this.app.server.address();
    this.bound =
      address && typeof address === 'object'
        ? [`tcp ${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`]
        : [];
  }

  async stop(): Promise<void> {
    await this.app.close();
    this.bound = [];
  }

  listenAddresses(): string[] {
    return this.bound;
  }

  /** The base URL clients reach, e.g. http://127.0.0.1:8080. */
  url(): string {
    const address = this.app.server.address();
    if (!address || typeof address !== 'object') throw new Error('http service is not listening');
    const host = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '[::1]' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `${this.scheme}://${host}:${address.port}`;
  }
}
