/**
 * How large a request body may be, at the two places that can refuse one.
 *
 * - The gateway: API Gateway's HTTP API accepts payloads up to 10 MB ("Payload size 10 MB", Quotas
 *   for configuring and running an HTTP API, docs.aws.amazon.com/apigateway/latest/developerguide/
 *   http-api-quotas.html), but each route here is a Lambda integration, invoked synchronously, and
 *   "for synchronous invocations, the maximum payload size is 6 MB" (Lambda Invoke API reference,
 *   docs.aws.amazon.com/lambda/latest/dg/API_Invoke.html), the event around the body included. So 6 MB
 *   is the largest body that can reach a handler in AWS; the local server (infra/local/server.ts)
 *   stands in for the gateway and refuses a larger one with 413 without reading the rest. In AWS
 *   the answer past it is the gateway's own, not this service's envelope.
 * - The handler: no body of this API comes near 1 MiB (the largest, 200 trackers at the schema's
 *   maxima, is about 200 KB), so every handler refuses a larger one before parsing it, the same
 *   in AWS and locally: 400 VALIDATION_ERROR on `body`, a spec code on spec routes. Parsing stays
 *   cheap, and with the depth limit (shared/validation.ts maxJsonDepth) no body can stall a handler.
 */
export const gatewayPayloadLimitBytes = 6 * 1024 * 1024;
export const maxJsonBodyBytes = 1024 * 1024;
