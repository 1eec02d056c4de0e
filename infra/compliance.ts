import { Aspects, Validations, type App, type IAspect } from 'aws-cdk-lib';
import { CfnPolicy } from 'aws-cdk-lib/aws-iam';
import { AwsSolutionsChecks, rules } from 'cdk-nag';
import type { IConstruct } from 'constructs';

/**
 * cdk-nag's AWS Solutions pack on every synth: a finding fails `cdk synth` (and the stack test)
 * unless it is fixed or acknowledged, with its reason, next to the construct it concerns.
 */
export const addComplianceChecks = (app: App): void => {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
};

/**
 * Acknowledges every wildcard (AwsSolutions-IAM5) finding on the IAM policies under `scope`, with
 * one reason. cdk-nag 3 matches a finding only by its full id, which embeds account-specific ARNs
 * (the CDK asset bucket's name, say); for roles the CDK writes itself, such as the bucket-deployment
 * handler's, the findings are computed at synth, by cdk-nag's own rule, and acknowledged there.
 */
export const acknowledgeWildcards = (scope: IConstruct, reason: string): void => {
  const aspect: IAspect = {
    visit(node) {
      if (!(node instanceof CfnPolicy)) return;
      const findings = rules.iam.IAMNoWildcardPermissions(node);
      if (!Array.isArray(findings)) return;
      for (const finding of findings) Validations.of(node).acknowledge({ id: `AwsSolutions-IAM5[${finding}]`, reason });
    },
  };
  Aspects.of(scope).add(aspect);
};
