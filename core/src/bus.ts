import { Subject, filter, map, type Observable } from 'rxjs';

/** A typed event: a fact after it happened ('workflow.run.finished', 'member.added' ...). */
export interface EventToken<T> {
  readonly name: string;
  readonly description: string;
  readonly __payload?: T;
}

export function defineEvent<T>(name: string, description = ''): EventToken<T> {
  return Object.freeze({ name, description });
}

export interface BusEvent<T = unknown> {
  readonly name: string;
  readonly payload: T;
  readonly at: number;
}

/** The RxJS event bus. Emitters do not know who listens. */
export class EventBus {
  #subject = new Subject<BusEvent>();
  readonly all$: Observable<BusEvent> = this.#subject.asObservable();

  emit<T>(event: EventToken<T>, payload: T): void {
    this.#subject.next({ name: event.name, payload, at: Date.now() });
  }

  on<T>(event: EventToken<T>): Observable<T> {
    return this.#subject.pipe(
      filter((e) => e.name === event.name),
      map((e) => e.payload as T),
    );
  }

  complete(): void {
    this.#subject.complete();
  }
}
