import { Migration } from '@mikro-orm/migrations';

/**
 * `patchbay_natural(text)`: the text with every run of digits left-padded to 8 places (as NetBox's `naturalize`),
 * so that text order is natural order (`Ethernet1/2` before `Ethernet1/10`). Immutable, so indexes can use it.
 */
export class NaturalSortMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function patchbay_natural(value text) returns text
      language sql immutable strict parallel safe as $$
        select coalesce(string_agg(case when part ~ '^[0-9]' then lpad(part, greatest(8, length(part)), '0') else part end, '' order by n), '')
        from regexp_matches(value, '[0-9]+|[^0-9]+', 'g') with ordinality as m(match, n), lateral (select match[1]) as p(part)
      $$;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop function if exists patchbay_natural(text);`);
  }
}
