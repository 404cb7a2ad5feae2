// The variables' calls: a space's app variables and the caller's user variables (values are JSON).
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';

const Name = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'Use letters, digits and _ (not starting with a digit), at most 64.');
const Scope = z.enum(['app', 'user']);
const InSpace = z.object({ space_id: z.string().min(1), scope: Scope });

export const ListVariables = defineEndpoint({
  method: 'POST',
  path: '/api/variables/list',
  summary: "The space's app variables, or the caller's user variables",
  body: InSpace,
  response: z.object({ variables: z.array(z.object({ name: z.string(), value: z.unknown() })) }),
});

export const SetVariable = defineEndpoint({
  method: 'POST',
  path: '/api/variables/set',
  summary: 'Set an app variable, or one of your user variables',
  body: InSpace.extend({ name: Name, value: z.unknown() }),
  response: z.null(),
});

export const DeleteVariable = defineEndpoint({
  method: 'POST',
  path: '/api/variables/delete',
  summary: 'Delete an app variable, or one of your user variables',
  body: InSpace.extend({ name: Name }),
  response: z.null(),
});
