import { asyncApiDocument } from '../../shared/events/asyncapi';
import { createGroupHandler } from '../../shared/http/handler';
import { metaRoutes } from '../../shared/http/routes/meta';
import { openApiDocument } from '../../shared/http/openapi';

/** Also API Gateway's `$default` route: any path no route matches gets the 404 envelope from here. */
export const handler = createGroupHandler('meta', metaRoutes, {
  openApiDocument: async () => ({ bareJson: openApiDocument() }),
  asyncApiDocument: async () => ({ bareJson: asyncApiDocument() }),
});
