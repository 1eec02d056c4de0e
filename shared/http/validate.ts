import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import * as z from 'zod/v4/core';
import { ValidationError } from '../errors';
import { fieldsOf, inspectJson, maxJsonDepth } from '../validation';
import type { RouteDefinition } from './route';

export interface ValidInput {
  params: unknown;
  query: unknown;
  body: unknown;
}

/**
 * Validates path parameters, query and body against the route's schemas. Fields are named by
 * their own name (`limit`, `keyId`, `purposeConfig.0.purposeId`), as the spec's `fields` does.
 *
 * Fails closed: the request goes on only when every declared part parsed. Success is decided by
 * zod's own verdict per part, never by whether error messages were collected, so a request whose
 * problems could not be put into words is still refused.
 */
export const validateRequest = (route: RouteDefinition, event: APIGatewayProxyEventV2): ValidInput => {
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  let valid = true;
  const parse = (schema: z.$ZodType | undefined, value: unknown, root: string): unknown => {
    if (!schema) return undefined;
    const result = z.safeParse(schema, value);
    if (result.success) return result.data;
    valid = false;
    for (const [field, message] of Object.entries(fieldsOf(result.error, root))) {
      if (!Object.hasOwn(fields, field)) fields[field] = message;
    }
    return undefined;
  };
  for (const [root, part] of [['query', event.queryStringParameters], ['body', event.body]] as const) {
    const { prototypeKeys, tooDeepAt } = inspectJson(part);
    for (const path of prototypeKeys) {
      valid = false;
      fields[path] = 'Field name not allowed';
    }
    // Nothing else looks at a part that nests too deep: zod would walk it too.
    if (tooDeepAt !== undefined) throw new ValidationError({ ...fields, [tooDeepAt.split('.')[0] || root]: `Nested deeper than ${maxJsonDepth} levels` });
  }
  const params = parse(route.request?.params, event.pathParameters ?? {}, 'path');
  const query = parse(route.request?.query, event.queryStringParameters ?? {}, 'query');
  const body = parse(route.request?.body, event.body, 'body');
  if (!valid) throw new ValidationError({ ...fields });
  return { params, query, body };
};
