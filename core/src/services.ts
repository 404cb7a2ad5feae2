/** A service an extension (or the host) provides for others: resolved through the inversify container. */
export interface ServiceToken<T> {
  readonly id: string;
  /** 'host' or the providing extension's id; a consumer must list that extension in requires or optional. */
  readonly owner: string;
  readonly description: string;
  readonly symbol: symbol;
  readonly __service?: T;
}

export function defineService<T>(spec: { id: string; owner: string; description: string }): ServiceToken<T> {
  return Object.freeze({ ...spec, symbol: Symbol.for(`tessera.service.${spec.id}`) });
}
