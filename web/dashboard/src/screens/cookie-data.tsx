import { ApiError, type DataOf } from '../api';
import { api, session } from '../session';

/** Shapes of the cookie-consent screens, all from the route table. */
export type PublicConfig = DataOf<'getCmpPublicConfig'>;
export type Tracker = DataOf<'listCmpTrackers'>[number];
export type LabelSet = DataOf<'listCmpTranslations'>[number];
export type ScanRun = DataOf<'listCmpScanRuns'>[number];
export type Draft = Pick<PublicConfig, 'categories' | 'defaultDeny' | 'childDirected' | 'bannerTheme' | 'languages' | 'reconsentDays' | 'scanEnabled' | 'scanUrls'>;

export interface CookieData {
  /** null until the first save (the public document answers 404 CMP_NOT_CONFIGURED until then). */
  config: PublicConfig | null;
  trackers: Tracker[];
  labelSets: LabelSet[];
}

/** A collect-only plan answers 404 CMP_NOT_CONFIGURED on every /cmp route, the signed-in ones included. */
export const notConfigured = (error: unknown) => error instanceof ApiError && error.code === 'CMP_NOT_CONFIGURED';

/** Everything the screen shows at first; 'not-on-plan' when the tenant's plan has no cookie consent. */
export const loadCookieData = async (): Promise<CookieData | 'not-on-plan'> => {
  try {
    // The signed-in reads answer CMP_NOT_CONFIGURED only for a collect-only plan.
    const [labelSets, trackers] = await Promise.all([api.call('listCmpTranslations'), api.call('listCmpTrackers')]);
    const config = await api.call('getCmpPublicConfig', { params: { tenantId: session.value!.tenantId } }).catch((error: unknown) => {
      if (notConfigured(error)) return null;
      throw error;
    });
    return { config, trackers, labelSets };
  } catch (error) {
    if (notConfigured(error)) return 'not-on-plan';
    throw error;
  }
};

/** The field messages of a VALIDATION_ERROR under `prefix` (`scanUrls` takes `scanUrls.0` too), joined. */
export const problemOf = (problems: Record<string, string>, prefix: string): string | undefined => {
  const found = Object.entries(problems).filter(([field]) => field === prefix || field.startsWith(`${prefix}.`));
  return found.length ? found.map(([field, message]) => (field === prefix ? message : `${field.slice(prefix.length + 1)}: ${message}`)).join('; ') : undefined;
};

/** A field's own message beside it, named by the field's aria-describedby. */
export const FieldError = ({ id, message }: { id: string; message: string | undefined }) =>
  message ? (
    <span class="field-error" id={id}>
      {message}
    </span>
  ) : null;
