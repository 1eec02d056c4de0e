/**
 * The S3 client and the commands the checkpoint archive sends, in a module of their own that
 * shared/evidence/archive.ts imports dynamically: esbuild then defers the evaluation of the S3
 * package (its many schemas) to the first archive call, which most requests of the functions that
 * may archive never make, while the named re-exports keep the package tree-shaken (a dynamic
 * import of the package itself would keep all of it).
 */
export { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
