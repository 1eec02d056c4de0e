import { engineConfig } from '../config';

/**
 * How every AWS SDK client of the functions is made (shared/db/client.ts and the modules beside
 * this one): the region, the local engine's endpoint where the stack has one, three attempts of the
 * SDK's standard retry mode, kept-alive connections, and timeouts that fit inside the function's
 * own timeout (engineConfig.awsTimeouts). No credentials are given: the SDK's default chain finds the
 * role's in the environment, where Lambda puts them (and the local stack puts its stand-ins).
 * Endpoints an operator configures as the SDK reads them (AWS_ENDPOINT_URL_<SERVICE>) are the
 * SDK's business.
 */
export const maxAttempts = 3;

export const clientOptions = (endpoint: string | undefined) => {
  const { connectionMs, requestMs } = engineConfig.awsTimeouts;
  // Connections stay open between requests, so a warm function pays the TLS handshake once.
  const agent = { keepAlive: true, maxSockets: 50 };
  return {
    region: engineConfig.region,
    ...(endpoint ? { endpoint } : {}),
    maxAttempts,
    requestHandler: {
      connectionTimeout: connectionMs,
      requestTimeout: requestMs,
      // Without this the SDK's handler only logs a warning when the request timeout passes.
      throwOnRequestTimeout: true,
      httpAgent: agent,
      httpsAgent: agent,
    },
  };
};

interface Destroyable {
  destroy(): void;
}

const made = new Map<string, Promise<Destroyable>>();

/**
 * One client per warm instance, made on first use: `make` runs once per `name`, so a request path
 * that never calls the service never builds its client (its configuration, credential chain and
 * connection pool). The SDK packages themselves are imported statically, by name: esbuild cannot
 * tree-shake a dynamically imported package, which made each client's share of a bundle about
 * twice as large (docs/bundles.md).
 */
export const lazyClient =
  <T extends Destroyable>(service: string, make: (endpoint: string | undefined) => Promise<T> | T, endpoint: () => string | undefined = () => undefined) =>
  (): Promise<T> => {
    // Per endpoint, read at each call: the local stack's engine may move (a test restarts one on a new port).
    const where = endpoint();
    const name = `${service} ${where ?? ''}`;
    let client = made.get(name);
    if (!client) {
      client = Promise.resolve().then(() => make(where));
      made.set(name, client);
      // A failed construction is not kept: the next call tries again.
      client.catch(() => made.delete(name));
    }
    return client as Promise<T>;
  };

/**
 * Drops the clients made so far (their sockets closed), so the next call makes new ones from the
 * environment as it is then: unit tests point one service at a fresh fake per test.
 */
export const forgetClients = async (): Promise<void> => {
  const clients = [...made.values()];
  made.clear();
  for (const client of await Promise.allSettled(clients)) if (client.status === 'fulfilled') client.value.destroy();
};
