// Identity's configuration, the account fields' checks and the user row as stored.
import { z } from 'zod';
import { type UserInfo } from '../shared/index.ts';

export const ConfigSchema = z.object({
  /** open: anyone may sign up; closed: nobody (but the first user); allowlist: emails or '@domain' entries. */
  registration: z.enum(['open', 'closed', 'allowlist']).default('open'),
  allowlist: z.array(z.string()).default([]),
  sessionDays: z.number().int().positive().max(365).default(30),
  /** Mark cookies Secure (serve the studio over HTTPS). */
  secureCookies: z.boolean().default(false),
  /** Failed sign-ins per minute for one account (then that account waits; others are not touched). */
  loginPerMinute: z.number().int().positive().default(10),
  /** Failed sign-ins per minute from one address, whatever the account (credential stuffing; raise it behind a shared proxy). */
  loginPerAddressPerMinute: z.number().int().positive().default(20),
  registerPerMinute: z.number().int().positive().default(20),
  /**
   * scrypt's cost for new passwords, as a power of two (N = 2^cost, 32 MiB at 15): each step doubles the time and
   * memory a sign-up or sign-in takes, and an attacker's per guess. Stored hashes keep the cost they were made with.
   * Lower it for test studios only.
   */
  passwordCost: z.number().int().min(10).max(20).default(15),
});
export type Config = z.output<typeof ConfigSchema>;

export { Email, Password, UniqueName } from '../shared/api.ts';

export interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  name: string;
  user_unique_name: string;
  avatar: string;
  is_platform_admin: number;
  created_at: string;
  updated_at: string;
}

export const toInfo = (u: UserRow): UserInfo => ({
  user_id: u.id,
  email: u.email,
  name: u.name,
  user_unique_name: u.user_unique_name,
  avatar: u.avatar,
  is_platform_admin: !!Number(u.is_platform_admin),
  created_at: u.created_at,
});

export const nowIso = () => new Date().toISOString();
export const sec = (iso: string | null | undefined) => (iso ? Math.floor(Date.parse(iso) / 1000) : 0);
