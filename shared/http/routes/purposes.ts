import * as z from 'zod/mini';
import { createPurposeBody, purposeIdParams, purposeView, updatePurposeBody } from '../../purposes/schemas';
import type { RouteDefinition } from '../route';

const tags = ['Purposes'];

/** Extension: the spec references purposeIds but names no endpoint to author purposes. */
export const purposeRoutes = {
  createPurpose: {
    method: 'POST',
    path: '/api/v1/purposes',
    group: 'notices',
    auth: { kind: 'bearer', access: 'write' },
    summary: 'Create a purpose',
    description:
      'A purpose of processing that notices can list. legalBasis defaults to CONSENT. Extension: retention (s.8(7), rule 8) says how long its data is kept and from when; for a Third Schedule tenant (GET /retention/settings), a retention longer than P3Y from LAST_ACTIVITY on a purpose without a thirdScheduleException is 400 VALIDATION_ERROR naming retention.',
    tags,
    request: { body: createPurposeBody },
    response: { status: 201, description: 'The purpose', data: purposeView },
  },
  listPurposes: {
    method: 'GET',
    path: '/api/v1/purposes',
    group: 'notices',
    auth: { kind: 'bearer', access: 'read' },
    summary: "List the tenant's purposes",
    tags,
    response: { status: 200, description: 'Purposes, oldest first', data: z.array(purposeView) },
  },
  getPurpose: {
    method: 'GET',
    path: '/api/v1/purposes/:id',
    group: 'notices',
    auth: { kind: 'bearer', access: 'read' },
    summary: 'Read a purpose',
    tags,
    request: { params: purposeIdParams },
    response: { status: 200, description: 'The purpose', data: purposeView },
    errors: ['NOT_FOUND'],
  },
  updatePurpose: {
    method: 'PUT',
    path: '/api/v1/purposes/:id',
    group: 'notices',
    auth: { kind: 'bearer', access: 'write' },
    summary: 'Update a purpose',
    description:
      'Published notices are unaffected: each published version keeps the purposes as they stood. The next publish of a notice listing this purpose reports the change, and whether it is material. Extension: retention and thirdScheduleException as on create (retention null removes it); a change of either made at the same moment as another is 409 CONFLICT.',
    tags,
    request: { params: purposeIdParams, body: updatePurposeBody },
    response: { status: 200, description: 'The updated purpose', data: purposeView },
    errors: ['NOT_FOUND', 'CONFLICT'],
  },
} as const satisfies Record<string, RouteDefinition>;
