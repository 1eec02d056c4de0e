import { createHash, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';

/**
 * The local stack's checkpoint archive: the part of the S3 API the archive uses (create bucket,
 * put, get, ListObjectsV2), on 127.0.0.1, so `shared/evidence/archive.ts` runs the same S3 client
 * calls as in AWS. It behaves like the AWS bucket (Object Lock in compliance mode, a policy that
 * demands `If-None-Match`): a put needs `If-None-Match: *` and is refused with 412 once the key
 * exists, and nothing is ever deleted or overwritten. With a directory, objects are files under it
 * (`<dir>/<bucket>/<key>`) and survive a restart, like DynamoDB Local's files; a file is written
 * beside its place and hard-linked in, which fails if the key exists, so even two processes sharing
 * the directory cannot both write one key. Without a directory it keeps objects in memory (tests).
 */
export interface ArchiveStoreOptions {
  /** Where objects are kept; omitted keeps them in memory. */
  dir?: string;
  port?: number;
}

interface StoredObject {
  body: Buffer;
  etag: string;
  lastModified: Date;
}

const bucketName = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
/**
 * Keys map to paths under the bucket, so a segment that could climb out, alias another or pass for
 * a file being written (`.<random>.partial`) is refused.
 */
const validKey = (key: string) => key.length > 0 && key.length <= 1024 && !key.includes('\\') && !key.includes('\0') && key.split('/').every((segment) => segment !== '' && !segment.startsWith('.'));

const xmlEscape = (text: string) => text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);

/** aws-chunked bodies (`<hex size>[;chunk-signature=…]\r\n<data>\r\n … 0\r\n<trailers>`), which the SDK sends for some checksums. */
const decodeAwsChunked = (bytes: Buffer): Buffer => {
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; ) {
    const lineEnd = bytes.indexOf('\r\n', offset);
    if (lineEnd < 0) break;
    const size = parseInt(bytes.subarray(offset, lineEnd).toString('ascii').split(';')[0]!, 16);
    if (!(size > 0)) break;
    chunks.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(chunks);
};

const etagOf = (body: Buffer) => `"${createHash('md5').update(body).digest('hex')}"`;

const readBody = (request: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });

/** The objects of every bucket, loaded from the directory once and kept in step with it. */
const openBuckets = (dir: string | undefined): Map<string, Map<string, StoredObject>> => {
  const buckets = new Map<string, Map<string, StoredObject>>();
  if (!dir) return buckets;
  mkdirSync(dir, { recursive: true });
  for (const bucket of readdirSync(dir)) {
    if (!bucketName.test(bucket)) continue;
    const objects = new Map<string, StoredObject>();
    const root = join(dir, bucket);
    for (const entry of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
      const key = entry.split('\\').join('/');
      const path = join(root, entry);
      // Files still being written (`.<random>.partial`, left by a crash) never become objects.
      if (!validKey(key) || !statSync(path).isFile()) continue;
      const body = readFileSync(path);
      objects.set(key, { body, etag: etagOf(body), lastModified: statSync(path).mtime });
    }
    buckets.set(bucket, objects);
  }
  return buckets;
};

export const startArchiveStore = async (options: ArchiveStoreOptions = {}): Promise<{ endpoint: string; stop(): Promise<void> }> => {
  const { dir } = options;
  const buckets = openBuckets(dir);

  const send = (response: ServerResponse, status: number, body = '', headers: Record<string, string> = {}) => {
    response.writeHead(status, { ...(body ? { 'content-type': 'application/xml' } : {}), ...headers });
    response.end(body);
  };
  const fail = (response: ServerResponse, status: number, code: string, message: string) =>
    send(response, status, `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${xmlEscape(message)}</Message></Error>`);

  /** Writes the object once: the file appears whole under its name, or not at all if the name is taken. */
  const persist = (bucket: string, key: string, body: Buffer): boolean => {
    if (!dir) return true;
    const path = join(dir, bucket, ...key.split('/'));
    mkdirSync(dirname(path), { recursive: true });
    const partial = join(dirname(path), `.${randomBytes(8).toString('hex')}.partial`);
    writeFileSync(partial, body, { flag: 'wx' });
    try {
      linkSync(partial, path);
      return true;
    } catch (error) {
      if ((error as { code?: string }).code === 'EEXIST') return false;
      throw error;
    } finally {
      unlinkSync(partial);
    }
  };

  const list = (response: ServerResponse, bucket: string, objects: Map<string, StoredObject>, query: URLSearchParams) => {
    if (query.get('list-type') !== '2') return fail(response, 400, 'NotImplemented', 'only ListObjectsV2 is served here');
    const prefix = query.get('prefix') ?? '';
    const token = query.get('continuation-token');
    const after = token ? Buffer.from(token, 'base64').toString('utf8') : (query.get('start-after') ?? '');
    const maxKeys = Math.min(1000, Math.max(0, Number(query.get('max-keys') ?? 1000) || 0));
    const keys = [...objects.keys()].filter((key) => key.startsWith(prefix) && key > after).sort();
    const page = keys.slice(0, maxKeys);
    const truncated = keys.length > page.length;
    const contents = page.map((key) => {
      const object = objects.get(key)!;
      return `<Contents><Key>${xmlEscape(key)}</Key><Size>${object.body.length}</Size><ETag>${xmlEscape(object.etag)}</ETag><LastModified>${object.lastModified.toISOString()}</LastModified><StorageClass>STANDARD</StorageClass></Contents>`;
    });
    send(
      response,
      200,
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">',
        `<Name>${xmlEscape(bucket)}</Name><Prefix>${xmlEscape(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${maxKeys}</MaxKeys><IsTruncated>${truncated}</IsTruncated>`,
        truncated && page.length > 0 ? `<NextContinuationToken>${Buffer.from(page.at(-1)!, 'utf8').toString('base64')}</NextContinuationToken>` : '',
        ...contents,
        '</ListBucketResult>',
      ].join(''),
    );
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    // The path as sent: a URL parser would resolve `..` segments before the key could be checked.
    const [path = '/', search = ''] = (request.url ?? '/').split('?', 2);
    const [bucket = '', ...rest] = path.slice(1).split('/');
    const key = decodeURIComponent(rest.join('/'));
    const query = new URLSearchParams(search);
    const method = request.method ?? 'GET';
    const body = await readBody(request);
    if (!bucketName.test(bucket)) return fail(response, 400, 'InvalidBucketName', 'The specified bucket is not valid.');
    const objects = buckets.get(bucket);
    if (!key) {
      if (method === 'PUT') {
        if (objects) return fail(response, 409, 'BucketAlreadyOwnedByYou', 'Your previous request to create the named bucket succeeded and you already own it.');
        if (dir) mkdirSync(join(dir, bucket), { recursive: true });
        buckets.set(bucket, new Map());
        return send(response, 200, '', { location: `/${bucket}` });
      }
      if (!objects) return fail(response, 404, 'NoSuchBucket', 'The specified bucket does not exist');
      if (method === 'HEAD') return send(response, 200);
      if (method === 'GET') return list(response, bucket, objects, query);
      return fail(response, 405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
    }
    if (!objects) return fail(response, 404, 'NoSuchBucket', 'The specified bucket does not exist');
    if (!validKey(key)) return fail(response, 400, 'InvalidArgument', 'The specified key is not valid here.');
    if (method === 'GET' || method === 'HEAD') {
      const object = objects.get(key);
      if (!object) return method === 'HEAD' ? send(response, 404) : fail(response, 404, 'NoSuchKey', 'The specified key does not exist.');
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(object.body.length), etag: object.etag, 'last-modified': object.lastModified.toUTCString() });
      return response.end(method === 'GET' ? object.body : undefined);
    }
    if (method === 'PUT') {
      // As the AWS bucket's policy: a put that could replace an object is refused outright.
      if (request.headers['if-none-match'] !== '*') return fail(response, 403, 'AccessDenied', 'Puts to the archive must carry If-None-Match: *');
      if (request.headers['x-amz-copy-source']) return fail(response, 403, 'AccessDenied', 'Copies into the archive are not allowed');
      const content = String(request.headers['content-encoding'] ?? '').includes('aws-chunked') || String(request.headers['x-amz-content-sha256'] ?? '').startsWith('STREAMING-') ? decodeAwsChunked(body) : body;
      if (objects.has(key) || !persist(bucket, key, content)) return fail(response, 412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold');
      const object = { body: content, etag: etagOf(content), lastModified: new Date() };
      objects.set(key, object);
      return send(response, 200, '', { etag: object.etag });
    }
    // DELETE among them: Object Lock in compliance mode lets nobody remove an archived checkpoint.
    return fail(response, 403, 'AccessDenied', 'Archived objects cannot be deleted or changed');
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) fail(response, 500, 'InternalError', error instanceof Error ? error.message : String(error));
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
