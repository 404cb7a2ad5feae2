import { registerHooks } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isHostProvided } from '@tessera/sdk/build/shared';

const roots = new Set<string>();
let registered = false;

/**
 * Runtime-loaded extensions (folders in extensionsDir, anywhere on disk) import what the studio provides
 * (`@tessera/*`, zod, kysely) as bare specifiers: those resolve to the host's own copies, whatever folder
 * the extension sits in. One instance of each, so registry points, services and ApiError are the host's.
 */
export function provideHostModules(extensionsDir: string): void {
  roots.add(pathToFileURL(path.resolve(extensionsDir)).href + '/');
  if (registered) return;
  registered = true;
  const hostParent = import.meta.url;
  registerHooks({
    resolve(specifier, context, nextResolve) {
      if (isHostProvided(specifier) && context.parentURL && [...roots].some((r) => context.parentURL!.startsWith(r))) {
        try {
          return nextResolve(specifier, { ...context, parentURL: hostParent });
        } catch {
          throw new Error(
            `This studio does not provide '${specifier}' (imported by ${context.parentURL}). Install the extension that publishes it, or bundle it.`,
          );
        }
      }
      return nextResolve(specifier, context);
    },
  });
}
