import { widgetFallbackLabels } from '../../../shared/cmp/widget-labels';

/**
 * English for the words the widget needs before, or without, the tenant's label sets. The one list
 * is shared/cmp/widget-labels.ts, part of every label set tenants translate; their text wins.
 */
export const fallbackLabels: Readonly<Record<string, string>> = widgetFallbackLabels;
