import { referenceSuite } from '../helpers/reference.js';

/** What the reference has that tenancy does not have yet, by what brings it. */
const PENDING: Record<string, string[]> = {
  'circuits (issue 13)': ['circuit_count'],
};

referenceSuite('tenancy', PENDING);
