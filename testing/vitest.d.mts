/** A vitest configuration for a plugin's tests (see `vitest.mjs`); `test` holds vitest's options over the kit's. */
export declare function patchbayVitest(test?: Record<string, unknown>): {
  resolve: { alias: { find: RegExp; replacement: string }[] };
  test: Record<string, unknown>;
};
