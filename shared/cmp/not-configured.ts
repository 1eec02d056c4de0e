import { AppError } from '../errors';

/** The spec's 404 for the cookie-consent family: no saved configuration, or a plan without it. */
export class CmpNotConfiguredError extends AppError {
  constructor(reason: string) {
    super('CMP_NOT_CONFIGURED', `Cookie consent is not configured for this tenant: ${reason}`);
  }
}
