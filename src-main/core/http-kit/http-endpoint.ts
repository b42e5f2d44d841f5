/** How the main HTTP server is reachable; the port is read late because tests listen on port 0. */
export interface HttpEndpoint {
  scheme: 'http' | 'https';
  /** The address the server listens on (0.0.0.0 and :: mean every address). */
  listenHost: string;
  port(): number;
}
