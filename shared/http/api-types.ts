import type * as z from 'zod/v4/core';
import type { routes } from './routes';

/**
 * Request and response types of the route table, for browser clients (the dashboard). Type-only:
 * a client imports this with `import type`, so no zod (and no server code) reaches a bundle.
 */
export type Routes = typeof routes;
export type OperationId = keyof Routes;

type RequestOf<Op extends OperationId> = Routes[Op] extends { request: infer R } ? R : Record<never, never>;

/** What the client sends: the schema's input (defaults may be left out). */
export type BodyOf<Op extends OperationId> = RequestOf<Op> extends { body: infer B extends z.$ZodType } ? z.input<B> : never;
export type QueryOf<Op extends OperationId> = RequestOf<Op> extends { query: infer Q extends z.$ZodType } ? z.input<Q> : never;
export type ParamsOf<Op extends OperationId> = RequestOf<Op> extends { params: infer P extends z.$ZodType } ? z.input<P> : never;
/** What `data` holds in a success: the schema's output. */
export type DataOf<Op extends OperationId> = Routes[Op]['response'] extends { data: infer D extends z.$ZodType } ? z.output<D> : unknown;
export type MethodOf<Op extends OperationId> = Routes[Op]['method'];
export type PathOf<Op extends OperationId> = Routes[Op]['path'];
