import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { CfnEventSourceMapping, type CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { repoRoot } from '../infra/functions';
import { ConsentServiceStack } from '../infra/stack';

/** What the CDK stack configures for one Lambda, read from the stack itself rather than restated. */
export interface DeployedFunction {
  memoryMb: number;
  architecture: string;
  runtime: string;
  /** NODE_OPTIONS of the function's environment (it changes how fast a bundle loads). */
  nodeOptions: string;
  /** Records per invocation of its event source (stream or queue), for the functions that have one. */
  batchSize?: number;
}

/** `ConsentPublicFunction` → `consent-public`: the construct ids infra/functions.ts gives. */
const nameOf = (constructId: string) =>
  constructId.replace(/Function$/, '').replace(/[A-Z]/g, (letter, index: number) => `${index ? '-' : ''}${letter.toLowerCase()}`);

/** Every function of the stack by name (groups, stream, webhook-worker, …); synthesised without bundling. */
export const deployedFunctions = (): Map<string, DeployedFunction> => {
  const { context } = JSON.parse(readFileSync(join(repoRoot, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };
  const app = new App({ context: { ...context, 'aws:cdk:bundling-stacks': [] } });
  const stack = new ConsentServiceStack(app, 'BenchStack', { env: { account: '123456789012', region: 'ap-south-1' } });
  const functions = new Map<string, DeployedFunction>();
  for (const child of stack.functions.node.children) {
    if (!(child instanceof NodejsFunction)) continue;
    const cfn = child.node.defaultChild as CfnFunction;
    const environment = stack.resolve(cfn.environment) as { variables?: Record<string, unknown> } | undefined;
    const mapping = child.node.findAll().find((construct): construct is CfnEventSourceMapping => construct instanceof CfnEventSourceMapping);
    functions.set(nameOf(child.node.id), {
      memoryMb: Number(cfn.memorySize),
      architecture: (cfn.architectures ?? ['x86_64']).join(','),
      runtime: String(cfn.runtime),
      nodeOptions: typeof environment?.variables?.NODE_OPTIONS === 'string' ? environment.variables.NODE_OPTIONS : '',
      ...(mapping?.batchSize === undefined ? {} : { batchSize: mapping.batchSize }),
    });
  }
  return functions;
};
