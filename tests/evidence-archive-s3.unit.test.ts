import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { archiveCheckpoint, listArchivedCheckpoints, readArchivedCheckpoint } from '../shared/evidence/archive';
import { credentialOf, fakeAwsService, roleCredentials, xmlAnswer } from './support/aws-fake';

/**
 * The checkpoint archive as it reaches S3 in AWS (the SDK's S3Client), against a fake on loopback:
 * the write-once put's conditions and lock, a missing note, and a listing that never ends.
 */
const bucket = 'consent-service-checkpoints-test';
const environment = { CHECKPOINT_BUCKET: bucket };

const listing = (keys: string[], next?: string) =>
  xmlAnswer(
    `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${bucket}</Name><Prefix>checkpoints/t1/</Prefix><KeyCount>${keys.length}</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>${next ? 'true' : 'false'}</IsTruncated>${keys.map((key) => `<Contents><Key>${key}</Key><Size>1</Size></Contents>`).join('')}${next ? `<NextContinuationToken>${next}</NextContinuationToken>` : ''}</ListBucketResult>`,
  );

describe('checkpoint archive through the SDK', () => {
  it('puts a note once, locked in compliance mode, with its SHA-256 checksum and the role credentials', async () => {
    const fake = await fakeAwsService('AWS_ENDPOINT_URL_S3', () => ({ status: 200, body: '' }), environment);
    const note = 'consent-service checkpoint\n42\n';
    expect(await archiveCheckpoint('t1', 42, note)).toBe(note);
    const [put] = fake.requests();
    expect(put).toMatchObject({ method: 'PUT', path: `/${bucket}/checkpoints/t1/000000000042.note?x-id=PutObject` });
    expect(put!.headers).toMatchObject({
      'if-none-match': '*',
      'x-amz-object-lock-mode': 'COMPLIANCE',
      'x-amz-checksum-sha256': createHash('sha256').update(note).digest('base64'),
      'content-type': 'text/plain; charset=utf-8',
    });
    expect(Date.parse(String(put!.headers['x-amz-object-lock-retain-until-date']))).toBeGreaterThan(Date.now() + 3000 * 86_400_000);
    expect(put!.rawBody.toString('utf8')).toBe(note);
    expect(credentialOf(put!)).toMatchObject({ accessKeyId: roleCredentials.accessKeyId, service: 's3' });
  });

  it('reads a missing note as undefined, and a missing bucket as the broken deployment it is', async () => {
    await fakeAwsService('AWS_ENDPOINT_URL_S3', () => xmlAnswer('<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>', 404), environment);
    expect(await readArchivedCheckpoint('t1', 7)).toBeUndefined();
    await fakeAwsService('AWS_ENDPOINT_URL_S3', () => xmlAnswer('<Error><Code>NoSuchBucket</Code><Message>The specified bucket does not exist</Message></Error>', 404), environment);
    await expect(readArchivedCheckpoint('t1', 7)).rejects.toMatchObject({ name: 'NoSuchBucket' });
  });

  it('follows continuation tokens, and stops at one the listing repeats instead of asking forever', async () => {
    const pages = await fakeAwsService('AWS_ENDPOINT_URL_S3', (_request, index) => (index === 0 ? listing(['checkpoints/t1/000000000001.note'], 'next-1') : listing(['checkpoints/t1/000000000002.note', 'checkpoints/t1/other'])), environment);
    expect(await listArchivedCheckpoints('t1')).toEqual([1, 2]);
    expect(pages.requests()[1]!.path).toContain('continuation-token=next-1');

    const looping = await fakeAwsService('AWS_ENDPOINT_URL_S3', () => listing(['checkpoints/t1/000000000001.note'], 'same-token'), environment);
    await expect(listArchivedCheckpoints('t1')).rejects.toThrow(/repeated its continuation token/);
    expect(looping.requests()).toHaveLength(2);
  });
});
