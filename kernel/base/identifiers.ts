/** `name` as a PostgreSQL identifier in double quotes (a quote in it doubled): for names from the registry, never input. */
export const quoteIdentifier = (name: string): string => `"${name.replace(/"/g, '""')}"`;
