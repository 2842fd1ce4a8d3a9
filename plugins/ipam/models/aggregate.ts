import { ValidationError, defineModel, f, type Row } from 'patchbay';
import { FamilyField } from '../fields/family.js';
import { NetworkField, withMask } from '../fields/network.js';
import { networkFilter } from '../rules/network-filters.js';
import { refuseZeroMask } from '../rules/zero-mask.js';

export const Aggregate = defineModel('ipam.aggregate', {
  path: 'aggregates',
  fields: {
    family: new FamilyField('prefix'),
    prefix: new NetworkField({}),
    rir: f.fk('ipam.rir', { onDelete: 'protect', countAs: 'aggregate_count', related: 'aggregates' }),
    tenant: f.fk('tenancy.tenant', { nullable: true, related: 'aggregates' }),
    date_added: f.date({ nullable: true }),
    description: f.string({ max: 200, blank: true }),
    comments: f.text({ blank: true }),
  },
  brief: ['family', 'prefix', 'description'],
  display: (row) => withMask(String(row.prefix)),
  displayUses: ['prefix'],
  ordering: ['prefix', 'id'],
  search: ['description', 'prefix:contains', 'prefix:net_contains_or_equals'],
  filters: { prefix: networkFilter('prefix', 'exact') },
  features: ['tags', 'customFields', 'changelog', 'journal', 'contacts'],
  // Aggregates do not overlap (checked under a lock, so concurrent writes cannot both pass).
  async validate(row, ctx) {
    refuseZeroMask(row, 'prefix', 'aggregate');
    await ctx.db.raw('select pg_advisory_xact_lock(hashtext(?))', ['ipam_aggregate']);
    const others = (qb: ReturnType<typeof ctx.db>) => (row.id === undefined ? qb : qb.whereNot('id', row.id as number));
    const covering = (await others(ctx.db('ipam_aggregate').select('prefix')).whereRaw('prefix >>= ?::cidr', [String(row.prefix)]).first()) as Row | undefined;
    if (covering) {
      throw ValidationError.of('prefix', `Aggregates cannot overlap. ${withMask(String(row.prefix))} is already covered by an existing aggregate (${withMask(String(covering.prefix))}).`);
    }
    const covered = (await others(ctx.db('ipam_aggregate').select('prefix')).whereRaw('prefix << ?::cidr', [String(row.prefix)]).first()) as Row | undefined;
    if (covered) {
      throw ValidationError.of('prefix', `Prefixes cannot overlap aggregates. ${withMask(String(row.prefix))} covers an existing aggregate (${withMask(String(covered.prefix))}).`);
    }
  },
});
