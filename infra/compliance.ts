import { Validations, type App } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';

/**
 * cdk-nag's AWS Solutions pack on every synth: a finding fails `cdk synth` (and the stack test)
 * unless it is fixed or acknowledged, with its reason, next to the construct it concerns.
 */
export const addComplianceChecks = (app: App): void => {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
};
