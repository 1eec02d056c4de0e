import { Sha256 } from '@smithy/core/checksum';
import { HttpRequest } from '@smithy/core/protocols';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentials } from '../../shared/aws/credentials';
import type { SigningScope, UnsignedRequest } from '../../shared/aws/sigv4';
import type { Received } from './receiver';

/** The headers the SDK's own signer, @smithy/signature-v4, gives `request`, configured as the SDK's clients configure it for `scope`. */
export const sdkSigned = async (request: UnsignedRequest, scope: SigningScope, signingDate: Date): Promise<Record<string, string>> => {
  const signer = new SignatureV4({
    credentials: scope.credentials,
    region: scope.region,
    service: scope.service,
    sha256: Sha256,
    uriEscapePath: !scope.signPathAsSent,
    applyChecksum: scope.contentSha256Header ?? false,
  });
  const [hostname = ''] = request.host.split(':');
  const unsigned = new HttpRequest({ method: request.method, protocol: 'https:', hostname, path: request.path, query: request.query ?? {}, headers: { ...request.headers, host: request.host }, body: request.body });
  return (await signer.sign(unsigned, { signingDate })).headers;
};

const authorization = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=[0-9a-f]{64}$/;

/**
 * The service a received request's SigV4 signature is valid for, as AWS would check it: the SDK's
 * signer signs the same headers again with `credentials`, and the Authorization must come out the
 * same. Undefined when it does not (a wrong key, scope, header or body).
 */
export const signedFor = async (received: Received, credentials: AwsCredentials): Promise<string | undefined> => {
  const match = authorization.exec(String(received.headers.authorization ?? ''));
  const amzDate = String(received.headers['x-amz-date'] ?? '');
  if (!match || match[1] !== credentials.accessKeyId || !amzDate.startsWith(match[2]!)) return undefined;
  const [, , , region, service, signedHeaders] = match as unknown as [string, string, string, string, string, string];
  const headers: Record<string, string> = {};
  for (const name of signedHeaders.split(';')) if (name !== 'host') headers[name] = String(received.headers[name] ?? '');
  const [path = '/', search = ''] = received.path.split('?');
  const query = Object.fromEntries(search ? search.split('&').map((pair) => pair.split('=').map(decodeURIComponent) as [string, string]) : []);
  const date = new Date(amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
  const s3 = service === 's3';
  const expected = await sdkSigned(
    { method: received.method, host: String(received.headers.host), path, query, headers, body: received.rawBody },
    { service, region, credentials, signPathAsSent: s3, contentSha256Header: s3 },
    date,
  );
  return expected.authorization === received.headers.authorization ? service : undefined;
};
