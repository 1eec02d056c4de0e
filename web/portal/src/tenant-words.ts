import { callApi } from './api';
import type { PageWords } from './labels';

/** One tenant's words by language (English when none is named, as the API answers), each asked for once. */
export const wordsOf = (tenantSlug: string) => {
  const asked = new Map<string, Promise<PageWords | undefined>>();
  return (language = 'EN'): Promise<PageWords | undefined> => {
    if (!asked.has(language)) {
      const path = `/words/public/${encodeURIComponent(tenantSlug)}?language=${encodeURIComponent(language)}`;
      asked.set(language, callApi<PageWords>('GET', path).then((answer) => (answer.ok ? answer.data : undefined)));
    }
    return asked.get(language)!;
  };
};
