// The cards extension's shared contract: the DSL, how a card is filled, and the calls the builder makes.
export * from './api.ts';
export * from './dsl.ts';
export { fill, renderCard, textOf, valueAt, variablesOf, type Shown } from './render.ts';
