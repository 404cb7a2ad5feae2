// The code node's sandbox for other extensions (code evaluators ...): the same isolation and limits.
import { defineService } from '@tessera/sdk';

export interface CodeSandbox {
  /**
   * Runs `main(params)` of the source in the sandbox (JavaScript, TypeScript or Python) within the limits
   * (capped by the node's configured maxima); throws an Error with a message a person can act on.
   */
  run(
    language: 'javascript' | 'typescript' | 'python',
    source: string,
    params: Record<string, unknown>,
    limits?: { timeoutMs?: number; memoryMb?: number },
    spaceId?: string,
  ): Promise<unknown>;
}

export const CodeSandboxService = defineService<CodeSandbox>({
  id: 'node-code.sandbox',
  owner: 'node-code',
  description: "Runs user code in the code node's sandbox.",
});
