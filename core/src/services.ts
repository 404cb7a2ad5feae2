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

/**
 * A class that makes a service (`ctx.provideClass(token, Class)`): its constructor takes the services its static
 * `inject` list names, in that order. inversify's decorators are not used: Node runs the studio's TypeScript by
 * stripping types, and decorators are not erasable syntax, so a class names its dependencies in a static list.
 */
export interface ServiceClass<T> {
  new (...deps: any[]): T;
  readonly inject?: readonly ServiceToken<any>[];
}
