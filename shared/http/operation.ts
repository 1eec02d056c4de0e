import type * as z from 'zod/v4/core';
import type { AuthenticatedKey } from '../api-keys/service';
import type { AccessClaims } from '../auth/jwt';
import type { FunctionGroup } from './route';
import type { OperationId, Routes } from './routes';

type Output<S> = S extends z.$ZodType ? z.output<S> : undefined;
type BodyOf<R> = R extends { request: { body: infer S } } ? Output<S> : undefined;
type QueryOf<R> = R extends { request: { query: infer S } } ? Output<S> : undefined;
type ParamsOf<R> = R extends { request: { params: infer S } } ? Output<S> : undefined;
type CallerOf<R> = R extends { auth: { kind: 'bearer' } }
  ? AccessClaims
  : R extends { auth: { kind: 'apiKey' } }
    ? AuthenticatedKey
    : undefined;

/** Facts about the request that domain code may need (as data, never the API Gateway event). */
export interface RequestMeta {
  requestId: string;
  ip: string;
  userAgent: string | undefined;
  origin: string | undefined;
  referer: string | undefined;
  headers: Readonly<Record<string, string | undefined>>;
}

export interface OperationRequest<R> {
  body: BodyOf<R>;
  query: QueryOf<R>;
  params: ParamsOf<R>;
  caller: CallerOf<R>;
  meta: RequestMeta;
}

export type OperationResult =
  | { status?: number; headers?: Record<string, string>; data: unknown }
  /** A body sent as is, without the `{ data }` envelope (the OpenAPI document). */
  | { status?: number; headers?: Record<string, string>; bareJson: unknown }
  /** A body serialised ahead of time (a precomputed document), or '' for a 304. */
  | { status?: number; headers?: Record<string, string>; serialized: string }
  /** Bytes (a PDF), sent base64-encoded as API Gateway expects of a binary body. */
  | { status?: number; headers?: Record<string, string>; binary: Uint8Array };

export type Operation<K extends OperationId> = (request: OperationRequest<Routes[K]>) => Promise<OperationResult>;

export type OperationsOf<G extends FunctionGroup> = {
  [K in OperationId as Routes[K]['group'] extends G ? K : never]: Operation<K>;
};

export const ok = (data: unknown, status = 200): OperationResult => ({ status, data });
export const created = (data: unknown): OperationResult => ({ status: 201, data });
