import { referenceSuite } from '../helpers/reference.js';

/** Tenancy has everything the reference has. */
referenceSuite('tenancy', {});
