import { definePlugin } from '../../kernel/index.js';
import { housekeeping, recordChange, requestFilters } from './changelog.js';
import { TagsField } from './fields/tags.js';
import { ObjectChange } from './models/object-change.js';
import { Tag } from './models/tag.js';
import { tagFilters } from './tag-filters.js';

/** The change log, tags, custom fields, journal and image attachments, for every model that declares the feature. */
export default definePlugin({
  name: 'extras',
  label: 'Extras',
  version: '0.1.0',
  kernel: '^0.1.0',
  basePath: '/api/extras/',
  models: [ObjectChange, Tag],
  migrations: new URL('./migrations/', import.meta.url),
  contributes: (model) => (model.features.has('tags') ? [new TagsField()] : []),
  changes: recordChange,
  setup(ctx) {
    ctx.filters.extend(requestFilters(ctx));
    ctx.filters.extend(tagFilters);
  },
  commands: {
    housekeeping: { usage: 'housekeeping', help: 'Delete change records older than CHANGELOG_RETENTION days.', run: (_args, ctx) => housekeeping(ctx) },
  },
});
