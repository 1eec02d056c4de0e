import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { engineConfig } from '../config';
import { clientOptions, lazyClient } from './clients';

/**
 * AWS Lambda through the SDK's client: synchronous invocations by the documents function (the
 * document printer, and the functions whose pages it prints). Made on first use. Only the documents
 * function imports this (tests/infra/stack.test.ts: its bundle is the one that holds the client).
 */
/**
 * One attempt, answered within 80% of the function's own timeout: an invocation's work is not
 * repeated on a slow answer (the page of an evidence pack may wait seconds for a checkpoint, and
 * Chromium starts with the printer's first document), and the function still answers before it ends.
 */
const invokeOptions = (endpoint: string | undefined) => {
  const options = clientOptions(endpoint);
  const { connectionMs } = engineConfig.awsTimeouts;
  return { ...options, maxAttempts: 1, requestHandler: { ...options.requestHandler, requestTimeout: Math.floor(engineConfig.functionTimeoutSeconds * 1000 * 0.8) - connectionMs } };
};

const lambdaClient = /* @__PURE__ */ lazyClient('lambda', (endpoint) => new LambdaClient(invokeOptions(endpoint)));

/** Invokes `functionName` with `payload` (JSON) and answers its JSON answer; a function error throws, naming `what`. */
export const invokeFunction = async <T>(functionName: string, payload: unknown, what: string): Promise<T> => {
  const answer = await (await lambdaClient()).send(new InvokeCommand({ FunctionName: functionName, Payload: new TextEncoder().encode(JSON.stringify(payload)) }));
  if (answer.FunctionError || !answer.Payload) throw new Error(`${what} failed: ${answer.FunctionError ?? 'no answer'}`);
  return JSON.parse(new TextDecoder().decode(answer.Payload)) as T;
};
