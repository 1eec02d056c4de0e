import { breachAcknowledgementConsumer } from '../../shared/breaches/acknowledgement';
import { guardianRequestsConsumer } from '../../shared/children/requested';
import { recordedEventsConsumer } from '../../shared/consent/recorded-events';
import { withdrawalConsumer } from '../../shared/consent/withdrawal-consumer';
import { outboxConsumer } from '../../shared/events/outbox-consumer';
import { evidenceLogConsumer } from '../../shared/evidence/log-consumer';
import { activityConsumer, rightsActivityConsumer } from '../../shared/retention/activity-consumer';
import type { StreamConsumer } from '../../shared/stream/consumer';

/**
 * The stream's consumers: the composition root's registry, read by the stream function and by the
 * local workers' stream reader. It lives here, above the domains it names, so that no module of
 * shared/ imports a module that imports it back (the consumers import only the StreamConsumer type).
 */
export const streamConsumers: readonly StreamConsumer[] = [evidenceLogConsumer, recordedEventsConsumer, outboxConsumer, withdrawalConsumer, guardianRequestsConsumer, breachAcknowledgementConsumer, activityConsumer, rightsActivityConsumer];
