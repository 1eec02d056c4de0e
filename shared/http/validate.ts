import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { z } from 'zod';
import { ValidationError } from '../errors';
import { fieldsOf } from '../validation';
import type { RouteDefinition } from './route';

/**
 * Validates path parameters, query and body against the route's schemas. Field names in the
 * error are prefixed by where they came from only for path and query; body fields stay bare,
 * as a client expects (`title`, `purposeConfig.0.purposeId`).
 */
export const validateRequest = (route: RouteDefinition, event: APIGatewayProxyEventV2) => {
  const fields: Record<string, string> = {};
  const parse = (schema: z.ZodType | undefined, value: unknown, prefix: string, root: string) => {
    if (!schema) return undefined;
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    for (const [field, message] of Object.entries(fieldsOf(result.error, root))) {
      fields[prefix && field !== root ? `${prefix}${field}` : field] = message;
    }
    return undefined;
  };
  const params = parse(route.request?.params, event.pathParameters ?? {}, 'path.', 'path');
  const query = parse(route.request?.query, event.queryStringParameters ?? {}, 'query.', 'query');
  const body = parse(route.request?.body, event.body, '', 'body');
  if (Object.keys(fields).length > 0) throw new ValidationError(fields);
  return { params, query, body };
};
