// The space and user the models page works for (services of the spaces and identity extensions), set
// at registration, so the page's own code can load later.
import type { CurrentUser } from '@tessera/ext-identity/shared';
import type { CurrentSpace } from '@tessera/ext-spaces/shared';

let services: { space: CurrentSpace; user: CurrentUser } | undefined;

export function setServices(s: { space: CurrentSpace; user: CurrentUser }) {
  services = s;
}

export function currentServices(): { space: CurrentSpace; user: CurrentUser } {
  if (!services) throw new Error('the models extension is not registered');
  return services;
}
