/** Reading a failed parse. */
import { z } from 'zod';

/** The first issue of a failed parse: its message and its path joined with dots (empty for the whole value). */
export function firstIssue(error: z.ZodError): { message: string; path: string } {
  const issue = error.issues[0]!;
  return { message: issue.message, path: issue.path.map(String).join('.') };
}

/** Every field's first issue, in the order of the fields (for forms). */
export function issuesByField(error: z.ZodError): Record<string, z.core.$ZodIssue> {
  const byField: Record<string, z.core.$ZodIssue> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.');
    if (!(key in byField)) byField[key] = issue;
  }
  return byField;
}

export { z };
