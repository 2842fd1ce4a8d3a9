import { and, cmp, lastValue, or, type FilterNode, type QueryFilter } from '../../../kernel/index.js';

/** `?q=`: any of `paths` (along relations) contains the text, or one of `more` (conditions NetBox searches too). */
export function searchIn(paths: string[][], more: (text: string) => FilterNode[] = () => []): QueryFilter {
  return {
    suffixes: [],
    build: (_s, values) => {
      const text = lastValue(values).trim();
      return text ? or([...paths.map((p) => cmp(p, 'icontains', text)), ...more(text)]) : and([]);
    },
  };
}
