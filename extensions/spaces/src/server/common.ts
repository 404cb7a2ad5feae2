// What the spaces extension's server modules share: request schemas, space locators, the context type.
import type { ServerContext } from '@tessera/sdk/server';
import { z } from 'zod';
import { SpaceRoleType } from '../shared/index.ts';

export const nowIso = () => new Date().toISOString();
export const Id = z.string().min(1).max(32);
export const Name = z.string().trim().min(1, 'Give the space a name.').max(50);
export const Role = z.union([z.literal(SpaceRoleType.Admin), z.literal(SpaceRoleType.Member)]);
export const OpenRole = z.enum(['admin', 'member']);
export const bodySpace = { space: { from: 'body' as const, field: 'space_id' } };
export const paramSpace = { space: { from: 'params' as const, field: 'workspace_id' } };

export type Ctx = ServerContext<unknown>;
