import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../shared/errors';
import { parseInput } from '../shared/validation';
import { readableFailure, readableProblem } from '../web/dashboard/src/problems';

/**
 * Issue 37, defect 6: the dashboard shows no validation message in a developer's words. The API's
 * field messages (zod's, kept as they are for integrators) are made here by the service's own
 * validation, so the test follows zod's wording if it changes.
 */
const fieldsOf = (input: unknown): Record<string, string> => {
  const schema = z.strictObject({
    title: z.string().check(z.minLength(1)),
    reference: z.string().check(z.maxLength(3)),
    awareAt: z.iso.datetime(),
    email: z.email(),
    name: z.string(),
    scope: z.enum(['ALL', 'NOTICES']),
    ids: z.array(z.string()).check(z.minLength(1)),
    limit: z.number().check(z.int(), z.positive()),
    assetId: z.uuid(),
    website: z.url(),
  });
  try {
    parseInput(schema, input);
  } catch (error) {
    if (error instanceof ValidationError) return { ...error.fields };
    throw error;
  }
  throw new Error('the input was accepted');
};

describe("the dashboard's words for a refused form", () => {
  it('says what to do for every message the validation writes, never zod\'s words', () => {
    const fields = fieldsOf({ title: '', reference: 'abcd', awareAt: 'tomorrow', email: 'x', scope: 'SOME', ids: [], limit: -1, assetId: 'x', website: 'x', extra: 1 });
    expect(Object.keys(fields).sort()).toEqual(['assetId', 'awareAt', 'email', 'extra', 'ids', 'limit', 'name', 'reference', 'scope', 'title', 'website']);
    const shown = Object.fromEntries(Object.entries(fields).map(([field, message]) => [field, readableProblem(message)]));
    expect(shown).toMatchObject({
      title: 'Required: write something here.',
      reference: 'Keep it to 3 characters or fewer.',
      awareAt: 'Enter a date and time.',
      email: 'Enter an email address, such as name@example.com.',
      name: 'Required: this cannot be left empty.',
      ids: 'Choose at least one.',
      limit: 'Enter a number above 0.',
    });
    for (const [field, message] of Object.entries(shown)) {
      expect(message, field).not.toMatch(/Too small|Too big|expected|Invalid|ISO|UUID|received|>=|<=|Unknown field/);
    }
  });

  it("keeps a message the service wrote for people, and words the API's summary of a refusal", () => {
    expect(readableProblem('(iii) the measures to mitigate the risk is missing')).toBe('(iii) the measures to mitigate the risk is missing');
    expect(readableFailure('VALIDATION_ERROR', 'Request validation failed')).toBe('Some of what you entered needs changing: each field marked says what.');
    expect(readableFailure('CONFLICT', 'The breach is closed; it can no longer change')).toBe('The breach is closed; it can no longer change');
  });
});
