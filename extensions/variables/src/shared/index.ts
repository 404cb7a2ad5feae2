import { defineService } from '@tessera/sdk';

/**
 * 'app' variables are shared by everything of an app (until projects exist, an app is a space);
 * 'user' variables belong to one user in that app.
 */
export type VariableScope = 'app' | 'user';

export interface VariableKey {
  scope: VariableScope;
  spaceId: string;
  /** For user variables. */
  userId?: string;
}

export interface Variables {
  all(key: VariableKey): Promise<Record<string, unknown>>;
  set(key: VariableKey, name: string, value: unknown): Promise<void>;
  remove(key: VariableKey, name: string): Promise<void>;
}

export const VariablesService = defineService<Variables>({
  id: 'variables.store',
  owner: 'variables',
  description: 'App and user variables.',
});
