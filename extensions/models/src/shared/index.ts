import { defineRegistryPoint, defineService, defineViewRef, type Language } from '@tessera/sdk';
import type { EmbeddingModel, LanguageModel, SpeechModel, TranscriptionModel } from 'ai';
import type { CSSProperties } from 'react';
import { z } from 'zod';

/** chat, embedding, rerank; speech (text to speech) and transcription (speech to text), for voice. */
export type ModelKind = 'chat' | 'embedding' | 'rerank' | 'speech' | 'transcription';
export const MODEL_KINDS = ['chat', 'embedding', 'rerank', 'speech', 'transcription'] as const;

/** A reranking model: orders documents by how well they answer a query. */
export interface Reranker {
  /** Relevance of each document (by its index in `documents`), best first, at most `topN`. */
  rerank(
    query: string,
    documents: string[],
    opts?: { topN?: number; signal?: AbortSignal },
  ): Promise<{ index: number; score: number }[]>;
}

export interface ModelCapabilities {
  function_call: boolean;
  json_output: boolean;
  vision: boolean;
  reasoning: boolean;
}

export interface ModelParams {
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
}

/** A credential's fields as given by the user: api_key is secret; base_url and the rest are not. */
export interface ProviderCredentials {
  api_key?: string;
  base_url?: string;
  [field: string]: unknown;
}

export interface ProviderField {
  name: string;
  label: Record<Language, string>;
  secret?: boolean;
  required?: boolean;
  placeholder?: string;
}

export type ProviderFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** A model provider: contributed by an extension, built on the Vercel AI SDK. */
export interface ModelProviderDefinition {
  key: string;
  label: Record<Language, string>;
  kinds: ModelKind[];
  /** The credential form. */
  fields: ProviderField[];
  defaultBaseUrl?: string;
  /** May load the provider's SDK on first use (an import() inside): providers cost nothing until a model is called. */
  chat(
    credentials: ProviderCredentials,
    modelName: string,
    fetch: ProviderFetch,
  ): LanguageModel | Promise<LanguageModel>;
  embedding?(
    credentials: ProviderCredentials,
    modelName: string,
    fetch: ProviderFetch,
  ): EmbeddingModel | Promise<EmbeddingModel>;
  /** Reranking models (Cohere, Jina, vLLM and TEI share a /rerank call). */
  rerank?(credentials: ProviderCredentials, modelName: string, fetch: ProviderFetch): Reranker | Promise<Reranker>;
  /** Text to speech (OpenAI's /audio/speech and the endpoints that copy it). */
  speech?(
    credentials: ProviderCredentials,
    modelName: string,
    fetch: ProviderFetch,
  ): SpeechModel | Promise<SpeechModel>;
  /** Speech to text (OpenAI's /audio/transcriptions and the endpoints that copy it). */
  transcription?(
    credentials: ProviderCredentials,
    modelName: string,
    fetch: ProviderFetch,
  ): TranscriptionModel | Promise<TranscriptionModel>;
  /** The provider's model list, for "add models" and connection tests. */
  listModels?(credentials: ProviderCredentials, fetch: ProviderFetch): Promise<{ name: string; kind: ModelKind }[]>;
}

const fn = z.custom<(...a: unknown[]) => unknown>((v) => typeof v === 'function', 'must be a function');

export const ModelProviders = defineRegistryPoint<ModelProviderDefinition>({
  id: 'models.providers',
  owner: 'models',
  description: 'Model providers (OpenAI, OpenAI-compatible endpoints, Anthropic, Gemini ...), each an extension.',
  schema: z.object({
    key: z.string().regex(/^[a-z][a-z0-9-]*$/),
    kinds: z.array(z.enum(MODEL_KINDS)).min(1),
    chat: fn,
  }),
  key: (p) => p.key,
});

export interface ModelInfo {
  model_id: string;
  model_name: string;
  display_name: string;
  kind: ModelKind;
  provider: string;
  credential_id: string;
  /** 'space' or 'platform' (added by a platform administrator for every space). */
  scope: 'space' | 'platform';
  enabled: boolean;
  capabilities: ModelCapabilities;
  default_params: ModelParams;
  /** The default of its kind in its space (or on the platform). */
  is_default: boolean;
  /**
   * Deprecated: kept for what uses it, not offered to new work; with a `successor_id`, every call made with it is
   * answered by the successor (bots, workflows and prompts move without being edited).
   */
  deprecated: boolean;
  /** The model that answers in its place ('' for none). */
  successor_id: string;
}

export interface ResolvedModel extends ModelInfo {
  chat(): Promise<LanguageModel>;
  embedding(): Promise<EmbeddingModel>;
  rerank(): Promise<Reranker>;
  speech(): Promise<SpeechModel>;
  transcription(): Promise<TranscriptionModel>;
}

export interface UsageRecord {
  space_id: string;
  model_id: string;
  input_tokens: number;
  output_tokens: number;
  /** What used the model: 'workflow', 'chat', 'test' ... */
  source: string;
  run_id?: string;
  conversation_id?: string;
}

/** What other extensions ask of model management (server side). */
export interface Models {
  /** A model usable in the space (its own or the platform's), enabled; throws a clear error otherwise. */
  get(spaceId: string, modelId: string): Promise<ResolvedModel>;
  list(spaceId: string, kind?: ModelKind): Promise<ModelInfo[]>;
  /**
   * The model a new bot (or node) of the space takes when none is chosen: the space's default of the kind,
   * else the platform's, else the space's first enabled one, else the platform's first; undefined when none.
   */
  defaultModel(spaceId: string, kind?: ModelKind): Promise<ModelInfo | undefined>;
  recordUsage(usage: UsageRecord): Promise<void>;
  /**
   * Asks a chat model once (no tools, no stream) and records the usage under `source`: the text it answered, or an
   * Error saying why not. For work that needs one answer per item (annotation by a model, batch inference ...).
   */
  complete(r: CompleteRequest): Promise<{ text: string; input_tokens: number; output_tokens: number }>;
}

export interface CompleteRequest {
  spaceId: string;
  modelId: string;
  system?: string;
  messages: { role: 'user' | 'assistant' | 'system'; content: string }[];
  temperature?: number;
  maxOutputTokens?: number;
  topP?: number;
  signal?: AbortSignal;
  /** What the usage is recorded as ('datasets', 'evaluation' ...). */
  source: string;
}

export const ModelsService = defineService<Models>({
  id: 'models.registry',
  owner: 'models',
  description: 'Models usable in a space, and usage recording.',
});

export interface ModelSelectProps {
  spaceId: string | undefined;
  kind?: ModelKind;
  value?: string;
  /** With `allowClear`, the field may be left empty: onChange gets ''. */
  onChange(modelId: string, model?: { display_name: string; provider: string }): void;
  style?: CSSProperties;
  allowClear?: boolean;
}

/**
 * The model picker (the enabled models the space can use), for extensions that have models as optional: draw it
 * with `<SharedView of={ModelSelectView} ... />` (extensions that require models may import `ModelSelect`).
 */
export const ModelSelectView = defineViewRef<ModelSelectProps>('models.modelSelect');
