import { withdrawalAttributionLabel, withdrawalAttributionText, type WithdrawalAttribution } from '../../../../shared/consent/attribution-levels';

/** How a withdrawal was made, in the team's words. */
const methodWords: Record<string, string> = {
  DASHBOARD: 'by your team, in the dashboard',
  WEB_PORTAL: 'on the withdrawal page, through a single-use link mailed to the person or made by your team',
  PUBLIC_API: 'through the public withdrawal API, with an email address',
  WIDGET: 'in the widget, by the browser that gave the consent',
  RIGHTS_REQUEST: 'by fulfilling an erasure request the person confirmed',
};

export const withdrawalMethodText = (method: string | null): string => (method ? (methodWords[method] ?? method) : 'not recorded (an older withdrawal)');

/**
 * Who withdrew, as far as the evidence knows: a withdrawal by email at the public endpoint is
 * marked unverified, with its origin and IP hash (shared/consent/withdrawal-attribution.ts).
 */
export const WithdrawalAttributionNote = ({ attribution, id }: { attribution: WithdrawalAttribution | null; id?: string }) =>
  attribution ? (
    <p class="attribution" id={id}>
      <span class={`badge ${attribution.level === 'CLAIMED' ? 'overdue' : 'active'}`}>{withdrawalAttributionLabel(attribution)}</span> {withdrawalAttributionText(attribution)}
    </p>
  ) : null;
